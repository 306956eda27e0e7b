import type { JobRow } from "../domain/jobs/store";
import { jobView } from "../domain/jobs/views";

/**
 * What an unfinished job is doing, in words: the institution's maintenance, its turn on the credential, or its
 * progress. The page's poller runs this very function on the job's JSON (live-progress.ts), so it refers to nothing
 * outside itself.
 */
export function progressText(job: { phase: string; completedTaskCount: number; totalTaskCount: number; queuePosition?: number; maintenanceUntil?: string }): string {
  if (job.maintenanceUntil) return "기관 점검 대기 · " + new Date(job.maintenanceUntil).toLocaleString("ko-KR", { timeZone: "Asia/Seoul" }) + "까지";
  if (job.queuePosition !== undefined) return job.queuePosition === 0 ? "차례가 와 곧 시작" : "차례 대기 · 앞에 " + job.queuePosition + "건";
  return (job.phase === "PENDING" ? "대기 중" : "수집 중") + " " + job.completedTaskCount + "/" + job.totalTaskCount;
}

/** A job's state for people: a live progress bar while it runs, else its outcome. */
export function JobStatusCell(props: { job: JobRow; pollUrl: string }) {
  const view = jobView(props.job);
  if (view.kind === "Succeeded") return <span data-kind="Succeeded">완료 · {view.recordCount}건</span>;
  if (view.kind === "Failed") return <span data-kind="Failed">실패 · {view.error.code}</span>;
  return (
    <span data-kind="InProgress" data-poll={props.pollUrl}>
      <progress max={Math.max(view.totalTaskCount, 1)} value={view.completedTaskCount} aria-label="진행률" />{" "}
      <span data-progress-text aria-live="polite">
        {progressText(view)}
      </span>
    </span>
  );
}
