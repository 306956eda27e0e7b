import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPartnerExample } from "../../../examples/partner/server";
import { freePort } from "../../../scripts/free-port";
import { type FileBrowser, personChromium } from "../../support/chromium";

const JOB_ID = "0b9f7f54-3c1e-4d7a-9a55-1f1d2c3b4a5e";

/**
 * The service as the example's backend reaches it, answering the documented shapes: the job (InProgress with
 * `awaitingHolder` until the test lets it succeed) and Hometax's provider detail with its 간편인증 apps.
 */
function serviceStandIn() {
  let job: Record<string, unknown> = {};
  const seenKeys: string[] = [];
  const server = createServer((req, res) => {
    seenKeys.push(req.headers.authorization ?? "");
    const body =
      req.url === `/api/v1/data-jobs/${JOB_ID}`
        ? job
        : req.url === "/api/v1/providers/hometax"
          ? { code: "hometax", credentialFields: [{ name: "provider", authMethod: "SIMPLE_AUTH", options: [{ value: "kakao", label: "카카오톡" }, { value: "naver", label: "네이버" }] }] }
          : null;
    res.writeHead(body ? 200 : 404, { "Content-Type": "application/json" }).end(JSON.stringify(body ?? { code: "RESOURCE_NOT_FOUND" }));
  });
  return { server, seenKeys, set: (next: Record<string, unknown>) => void (job = next) };
}

/** The seconds of the line's "(남은 시간 mm:ss)"; NaN when it has none, which fails every bound. */
function secondsLeft(text: string): number {
  const shown = /\(남은 시간 (\d\d):(\d\d)\)$/.exec(text);
  return shown ? Number(shown[1]) * 60 + Number(shown[2]) : Number.NaN;
}

const common = { id: JOB_ID, providerCode: "hometax", schema: "taxportal.tax-invoices.sales.v1", credentialId: null, suggestedPollIntervalMs: 200, maxWaitSeconds: 900 };
const service = serviceStandIn();
let partner: { url: string; close(): Promise<void> };
let browser: FileBrowser;

beforeAll(async () => {
  const port = await freePort();
  await new Promise<void>((resolve) => service.server.listen(port, "127.0.0.1", resolve));
  partner = await startPartnerExample({ port: await freePort(), serviceUrl: `http://127.0.0.1:${port}`, apiKey: "sk_test_partner" });
  browser = await personChromium();
});
afterAll(async () => {
  await browser?.close();
  await partner?.close();
  service.server.close();
});

describe("the partner example following a job that waits for its holder's phone", () => {
  it("tells the person to look at their phone, with the app's name and a countdown, then shows the job's end", async () => {
    const until = Date.now() + 4 * 60_000 + 30_000;
    service.set({ ...common, kind: "InProgress", phase: "RUNNING", completedTaskCount: 0, totalTaskCount: 0, awaitingHolder: { method: "SIMPLE_AUTH", provider: "kakao", since: new Date().toISOString(), until: new Date(until).toISOString() } });
    const page = await (await browser.createBrowserContext()).newPage();
    await page.goto(`${partner.url}/?job=${JOB_ID}`);
    const line = () => page.$eval("#job", (el) => el.textContent ?? "");
    await page.waitForFunction(() => document.getElementById("job")!.textContent!.startsWith("휴대폰을 확인해 주세요"));
    const first = await line();
    const leftNow = (until - Date.now()) / 1000;
    expect(first).toMatch(/^휴대폰을 확인해 주세요: 카카오톡 앱에서 인증 요청을 승인해 주세요 \(남은 시간 \d\d:\d\d\)$/);
    // The time left as the page saw it when it drew the line: no more than was given, no less than is left now
    // (a loaded machine may take seconds to open the page, so the figure is bounded, not fixed).
    const shownSeconds = secondsLeft(first);
    expect(shownSeconds).toBeLessThanOrEqual(270);
    expect(shownSeconds).toBeGreaterThanOrEqual(Math.floor(leftNow) - 1);
    expect(await page.$eval("#job", (el) => (el as HTMLElement).dataset.awaitingHolder)).toBe("kakao");
    // It counts down by itself between polls.
    await page.waitForFunction((shown) => document.getElementById("job")!.textContent !== shown, {}, first);
    expect(secondsLeft(await line())).toBeLessThan(shownSeconds);

    // Approved: the job goes on, and the page drops the request.
    service.set({ ...common, kind: "InProgress", phase: "RUNNING", completedTaskCount: 1, totalTaskCount: 2 });
    await page.waitForFunction(() => document.getElementById("job")!.textContent === "불러오는 중… 1/2");
    expect(await page.$eval("#job", (el) => (el as HTMLElement).dataset.awaitingHolder)).toBe("");
    service.set({ ...common, kind: "Succeeded", recordCount: 12 });
    await page.waitForFunction(() => document.getElementById("job")!.textContent === "다 불러왔습니다 (12건)");
    // The key stayed in the backend: every call to the service carried it, none came from the page.
    expect(new Set(service.seenKeys)).toEqual(new Set(["Bearer sk_test_partner"]));
  });
});
