import { progressText } from "./job-status";

/**
 * Inline script of the jobs pages: every element with `data-poll` (a job
 * still in progress) polls its job's JSON at the job's suggestedPollIntervalMs,
 * shows the progress, and reloads the page once the job has finished, so the
 * server renders the outcome (records preview, error and next action).
 */
export const LIVE_PROGRESS_SCRIPT = `
const progressText = (${progressText.toString()});
for (const el of document.querySelectorAll("[data-poll]")) {
  const poll = async () => {
    let job;
    try { job = await (await fetch(el.dataset.poll, { headers: { Accept: "application/json" } })).json(); } catch { job = null; }
    if (job && job.kind && job.kind !== "InProgress") return location.reload();
    if (job && job.kind === "InProgress") {
      const bar = el.querySelector("progress"), text = el.querySelector("[data-progress-text]");
      if (bar) { bar.max = Math.max(job.totalTaskCount, 1); bar.value = job.completedTaskCount; }
      if (text) text.textContent = progressText(job);
    }
    setTimeout(poll, (job && job.suggestedPollIntervalMs) || 5000);
  };
  setTimeout(poll, 0);
}`;
