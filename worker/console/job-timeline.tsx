import type { JobRow } from "../domain/jobs/store";
import { UNITS_SHOWN, type UnitHistory } from "../domain/jobs/unit-history";
import { SIMPLE_AUTH_APP_NAMES } from "../domain/catalog/providers";
import { kst } from "../web/kst";

/** A step of a job's course: when (if the service recorded the moment), what happened, and its kind for the page's marks. */
interface Step {
  at: number | null;
  kind: "queued" | "unit-done" | "unit-queued" | "wait" | "retry" | "succeeded" | "failed";
  text: string;
}

const period = (unit: UnitHistory) => (unit.segmentStart ? ` (${unit.segmentStart}${unit.segmentEnd && unit.segmentEnd !== unit.segmentStart ? ` ~ ${unit.segmentEnd}` : ""})` : "");

/**
 * A job's course from what its row and its units' rows record, nothing guessed: when it was asked for, each unit's
 * commit (its row's last change) or that it is still to come, the wait it is in now (its turn on the credential, the
 * institution's maintenance, its holder's phone), its automatic resumptions (counted, not timed), and its end.
 */
export function jobTimeline(job: JobRow, units: UnitHistory[]): Step[] {
  const steps: Step[] = [{ at: job.createdAt, kind: "queued", text: "요청을 받아 대기열에 넣었습니다" }];
  // A committed unit's row always has its commit's time (unit-history.ts).
  const done = units.filter((unit) => unit.status === "DONE").sort((a, b) => a.updatedAt! - b.updatedAt! || a.unitIndex - b.unitIndex);
  for (const unit of done) steps.push({ at: unit.updatedAt, kind: "unit-done", text: `단위 ${unit.unitIndex + 1}${period(unit)} 수집 완료 · ${unit.recordCount ?? 0}건` });
  const finished = job.finishedAt !== null;
  if (!finished) {
    if (job.queuePosition !== null) steps.push({ at: null, kind: "wait", text: job.queuePosition === 0 ? "같은 자격 증명의 차례가 와 곧 시작합니다" : `같은 자격 증명의 다른 작업을 기다리는 중 (앞에 ${job.queuePosition}건)` });
    if (job.resumesAt !== null) steps.push({ at: null, kind: "wait", text: `기관 점검 시간이라 ${kst(job.resumesAt)}에 이어서 수집합니다` });
    if (job.awaitingHolder) {
      const app = SIMPLE_AUTH_APP_NAMES[job.awaitingHolder.provider] ?? job.awaitingHolder.provider;
      steps.push({ at: Date.parse(job.awaitingHolder.since), kind: "wait", text: `소유자의 휴대폰 승인을 기다리는 중 (${app}, ${kst(Date.parse(job.awaitingHolder.until))}까지)` });
    }
  }
  if (job.attempt > 0) steps.push({ at: null, kind: "retry", text: `일시적인 오류로 자동으로 ${job.attempt}번 이어서 다시 시도했습니다` });
  if (!finished) {
    for (const unit of units.filter((u) => u.status === "QUEUED")) steps.push({ at: null, kind: "unit-queued", text: `단위 ${unit.unitIndex + 1}${period(unit)} 수집 전` });
  }
  if (job.finishedAt !== null) {
    steps.push(job.status === "SUCCEEDED" ? { at: job.finishedAt, kind: "succeeded", text: `완료 · ${job.recordCount}건` } : { at: job.finishedAt, kind: "failed", text: `실패: ${job.error?.message ?? ""}` });
  }
  return steps;
}

/** The job page's 진행 기록: its steps in order, each with its Korean time where one was recorded. */
export function JobTimeline(props: { job: JobRow; units: UnitHistory[] }) {
  const steps = jobTimeline(props.job, props.units);
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">진행 기록</h2>
      <ol id="timeline" class="timeline">
        {steps.map((step) => (
          <li data-step={step.kind}>
            {step.at !== null && <time datetime={new Date(step.at).toISOString()}>{kst(step.at)}</time>} {step.text}
          </li>
        ))}
      </ol>
      {props.units.length === UNITS_SHOWN && <p>단위는 처음 {UNITS_SHOWN}개까지 보여 줍니다.</p>}
    </section>
  );
}
