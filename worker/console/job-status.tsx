import type { JobRow } from "../domain/jobs/store";
import { jobView } from "../domain/jobs/views";
import { SIMPLE_AUTH_APP_NAMES } from "../domain/catalog/providers";
import { progressText } from "./progress-text";

// The words live in a file of their own, without JSX, so the page's inline script (live-progress.ts) takes them anywhere.
export { progressText } from "./progress-text";

/**
 * A job's state for people: a live progress bar while it runs, else its outcome. A job waiting for its holder's phone
 * carries `data-awaiting-holder` (the jobs list marks it; the poller sets and drops it).
 */
export function JobStatusCell(props: { job: JobRow; pollUrl: string }) {
  const view = jobView(props.job);
  if (view.kind === "Succeeded") return <span data-kind="Succeeded">완료 · {view.recordCount}건</span>;
  if (view.kind === "Failed") return <span data-kind="Failed">실패 · {view.error.code}</span>;
  return (
    <span data-kind="InProgress" data-poll={props.pollUrl} data-awaiting-holder={view.awaitingHolder ? view.awaitingHolder.provider : undefined}>
      <progress max={Math.max(view.totalTaskCount, 1)} value={view.completedTaskCount} aria-label="진행률" />{" "}
      <span data-progress-text aria-live="polite">
        {progressText(view, SIMPLE_AUTH_APP_NAMES, Date.now())}
      </span>
    </span>
  );
}
