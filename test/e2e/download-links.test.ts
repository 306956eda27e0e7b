// start-order: 15 (why: vitest.e2e.config.ts)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, useStackAndBrowser } from "../support/e2e/stack";

type Json = Record<string, any>;

const RANGE = { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-02-28" };

const { stack, browser } = useStackAndBrowser();
let api: ReturnType<typeof client>;
let downloads: string;

beforeAll(async () => {
  downloads = mkdtempSync(path.join(tmpdir(), "collect-e2e-downloads-"));
  api = client(stack());
});
afterAll(async () => {
  rmSync(downloads, { recursive: true, force: true });
});

/** A page in a browser context of its own, whose downloads Chromium saves in `dir` under the name the server gave. */
async function downloadingPage(dir: string): Promise<Page> {
  const context = await browser().createBrowserContext({ downloadBehavior: { policy: "allow", downloadPath: dir } });
  return context.newPage();
}

/** The files Chromium finished saving in `dir` (one still arriving is named *.crdownload). */
const savedFiles = (dir: string) => readdirSync(dir).filter((name) => !name.endsWith(".crdownload"));

/** Opens a link as someone handed it would, in the address bar, and resolves once Chromium saved the file. */
async function downloadInChromium(url: string, dir: string): Promise<{ fileName: string; bytes: Buffer }> {
  const page = await downloadingPage(dir);
  // A response that is an attachment ends the navigation (net::ERR_ABORTED) and becomes a download instead.
  await page.goto(url).catch((err: Error) => expect(err.message).toMatch(/ERR_ABORTED/));
  const deadline = Date.now() + 120_000;
  while (savedFiles(dir).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const [fileName, ...more] = savedFiles(dir);
  expect(more).toEqual([]);
  if (!fileName) throw new Error("Chromium saved no file within 30 s");
  return { fileName, bytes: readFileSync(path.join(dir, fileName)) };
}

describe("CSV download links against the local stack", () => {
  it("download a job's CSV in Chromium, without an API key, byte for byte what results.csv serves the key", async () => {
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: RANGE });
    expect(await api.waitForJob(job.id)).toMatchObject({ kind: "Succeeded" });
    const made = await api.json("POST", `/api/v1/data-jobs/${job.id}/download-links`, { expiresInSeconds: 600 });
    expect(made.status).toBe(201);
    expect(made.body.url.startsWith(`${stack().baseUrl}/api/v1/download-links/`)).toBe(true);
    expect(Date.parse(made.body.expiresAt) - Date.now()).toBeGreaterThan(590_000);

    const dir = mkdtempSync(path.join(downloads, "good-"));
    const { fileName, bytes } = await downloadInChromium(made.body.url, dir);
    expect(fileName).toBe(`bank.transactions.cb.v1-${job.id}.csv`);
    const viaKey = await api.request("GET", `/api/v1/data-jobs/${job.id}/results.csv`);
    const expected = Buffer.from(await viaKey.arrayBuffer());
    expect(expected.length).toBeGreaterThan(200);
    expect(bytes.equals(expected)).toBe(true);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it("refuse a tampered link in Chromium with the JSON envelope, saving nothing", async () => {
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
    const made = await api.json("POST", `/api/v1/data-jobs/${job.id}/download-links`);
    expect(made.status).toBe(201);
    const url: string = made.body.url;
    const at = url.length - 5;
    const tampered = url.slice(0, at) + (url[at] === "A" ? "B" : "A") + url.slice(at + 1);

    const dir = mkdtempSync(path.join(downloads, "tampered-"));
    const page = await downloadingPage(dir);
    const response = await page.goto(tampered);
    expect(response!.status()).toBe(401);
    expect(response!.headers()["content-type"]).toMatch(/^application\/json/);
    const envelope = (await response!.json()) as Json;
    expect(envelope).toMatchObject({ code: "INVALID_TOKEN", message: expect.stringMatching(/다운로드 링크가 올바르지 않습니다/), requestId: response!.headers()["x-request-id"] });
    expect(readdirSync(dir)).toEqual([]);
  });
});
