import { SIMPLE_AUTH_APP_NAMES } from "../domain/catalog/providers";
import { progressText } from "./progress-text";

/**
 * Inline script of the jobs pages: every element with `data-poll` (a job
 * still in progress) polls its job's JSON at the job's suggestedPollIntervalMs,
 * shows the progress, and reloads the page once the job has finished, so the
 * server renders the outcome (records preview, error and next action). While
 * the job waits for its holder's phone, the time left counts down every second
 * between polls: the person has about five minutes and should see them pass.
 */
export const LIVE_PROGRESS_SCRIPT = `
const progressText = (${progressText.toString()});
const APP_NAMES = ${JSON.stringify(SIMPLE_AUTH_APP_NAMES)};
for (const el of document.querySelectorAll("[data-poll]")) {
  let last = null;
  const show = () => {
    const text = el.querySelector("[data-progress-text]");
    if (text) text.textContent = progressText(last, APP_NAMES, Date.now());
    if (last.awaitingHolder) el.dataset.awaitingHolder = last.awaitingHolder.provider;
    else delete el.dataset.awaitingHolder;
  };
  const poll = async () => {
    let job;
    try { job = await (await fetch(el.dataset.poll, { headers: { Accept: "application/json" } })).json(); } catch { job = null; }
    if (job && job.kind && job.kind !== "InProgress") return location.reload();
    if (job && job.kind === "InProgress") {
      const bar = el.querySelector("progress");
      if (bar) { bar.max = Math.max(job.totalTaskCount, 1); bar.value = job.completedTaskCount; }
      last = job;
      show();
    }
    setTimeout(poll, (job && job.suggestedPollIntervalMs) || 5000);
  };
  setInterval(() => { if (last && last.awaitingHolder) show(); }, 1000);
  setTimeout(poll, 0);
}`;
