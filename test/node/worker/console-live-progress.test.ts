import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIVE_PROGRESS_SCRIPT } from "../../../worker/console/live-progress";
import { freePort } from "../../../scripts/free-port";
import { type FileBrowser, personChromium } from "../../support/chromium";

/**
 * The console's live-progress script in Chromium, on a page with one job cell as JobStatusCell renders it, polling a
 * job JSON the test changes (test/workers/console/console-awaiting-holder.test.ts renders the real page from D1; workerd runs
 * no browser).
 */
let job: Record<string, unknown> = {};
const server = createServer((req, res) => {
  if (req.url === "/job.json") return void res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(job));
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(
    `<!doctype html><html lang="ko"><body><span id="cell" data-kind="InProgress" data-poll="/job.json"><progress max="1" value="0"></progress> <span data-progress-text>대기 중 0/0</span></span><script>${LIVE_PROGRESS_SCRIPT}</script></body></html>`,
  );
});
let url = "";
let browser: FileBrowser;

beforeAll(async () => {
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${port}/`;
  browser = await personChromium();
});
afterAll(async () => {
  await browser?.close();
  server.close();
});

const running = (extra: Record<string, unknown> = {}) => ({ kind: "InProgress", id: "j", phase: "RUNNING", completedTaskCount: 0, totalTaskCount: 2, suggestedPollIntervalMs: 200, ...extra });

describe("the console's live progress on a job waiting for its holder's phone", () => {
  it("shows the app's Korean name and counts the time left down each second, then drops it once the job goes on", async () => {
    job = running({ awaitingHolder: { method: "SIMPLE_AUTH", provider: "kakao", since: new Date().toISOString(), until: new Date(Date.now() + 4 * 60_000 + 30_500).toISOString() } });
    const page = await (await browser.createBrowserContext()).newPage();
    await page.goto(url);
    const text = () => page.$eval("[data-progress-text]", (el) => el.textContent ?? "");
    await page.waitForFunction(() => document.querySelector("[data-progress-text]")!.textContent!.startsWith("휴대폰 승인 대기 중"));
    const first = await text();
    // Four and a half minutes less however long the page took to show it on a loaded machine.
    expect(first).toMatch(/^휴대폰 승인 대기 중: 카카오톡 앱에서 인증 요청을 승인해 주세요 \(남은 시간 04:(30|[12]\d)\)$/);
    expect(await page.$eval("#cell", (el) => (el as HTMLElement).dataset.awaitingHolder)).toBe("kakao");
    await page.waitForFunction((shown) => document.querySelector("[data-progress-text]")!.textContent !== shown, {}, first);
    // Counted down: a second or more less than it first showed.
    const later = await text();
    expect(later).toMatch(/\(남은 시간 04:[0-2]\d\)$/);
    expect(later < first).toBe(true);

    job = running({ completedTaskCount: 1 });
    await page.waitForFunction(() => document.querySelector("[data-progress-text]")!.textContent === "수집 중 1/2");
    expect(await page.$eval("#cell", (el) => (el as HTMLElement).dataset.awaitingHolder)).toBeUndefined();
  });
});
