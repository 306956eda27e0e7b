import type { JobRow } from "../jobs/store";
import { jobView } from "../jobs/views";

const PHASE = { PENDING: "대기 중", RUNNING: "수집 중" } as const;

/** A job's state for people: a live progress bar while it runs, else its outcome. */
export function JobStatusCell(props: { job: JobRow; pollUrl: string }) {
  const view = jobView(props.job);
  if (view.kind === "Succeeded") return <span data-kind="Succeeded">완료 · {view.recordCount}건</span>;
  if (view.kind === "Failed") return <span data-kind="Failed">실패 · {view.error.code}</span>;
  return (
    <span data-kind="InProgress" data-poll={props.pollUrl}>
      <progress max={Math.max(view.totalTaskCount, 1)} value={view.completedTaskCount} aria-label="진행률" />{" "}
      <span data-progress-text aria-live="polite">
        {PHASE[view.phase]} {view.completedTaskCount}/{view.totalTaskCount}
      </span>
    </span>
  );
}
