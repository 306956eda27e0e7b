import type { JobRow } from "../domain/jobs/store";
import { jobView } from "../domain/jobs/views";
import { SIMPLE_AUTH_APP_NAMES } from "../domain/catalog/providers";
import { progressText } from "./progress-text";
import { nextActionOf } from "./next-action";

/**
 * A job's state for people: a live progress bar while it runs, else its outcome; a failure in the catalog's Korean
 * words with the next step (`brief`: the word only, where the page explains the failure beside it). A job waiting for
 * its holder's phone carries `data-awaiting-holder` (the jobs list marks it; the poller sets and drops it).
 */
export function JobStatusCell(props: { job: JobRow; pollUrl: string; brief?: boolean }) {
  const view = jobView(props.job);
  if (view.kind === "Succeeded") return <span data-kind="Succeeded">완료 · {view.recordCount}건</span>;
  if (view.kind === "Failed") {
    return (
      <span data-kind="Failed" data-failure-code={view.error.code}>
        {props.brief ? "실패" : <><strong>실패:</strong> {view.error.message} <span class="next-step">다음 할 일: {nextActionOf(view.error)}</span></>}
      </span>
    );
  }
  return (
    <span data-kind="InProgress" data-poll={props.pollUrl} data-awaiting-holder={view.awaitingHolder ? view.awaitingHolder.provider : undefined}>
      <progress max={Math.max(view.totalTaskCount, 1)} value={view.completedTaskCount} aria-label="진행률" />{" "}
      <span data-progress-text aria-live="polite">
        {progressText(view, SIMPLE_AUTH_APP_NAMES, Date.now())}
      </span>
    </span>
  );
}
