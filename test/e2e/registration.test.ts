import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Frame, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPartnerExample } from "../../examples/partner/server";
import { newApiKey } from "../../scripts/demo-seed";
import { freePort } from "../../scripts/free-port";
import { bankGroundTruth } from "../../sandbox/bank/ground-truth";
import { launchChromium } from "../node/chromium";
import { client, type LocalStack, startStack } from "./stack";

const SHOTS = path.resolve(import.meta.dirname, "screenshots");
const PASSWORD = "pass_good";

let stack: LocalStack;
let partner: { url: string; close(): Promise<void> };
let browser: Browser;
let apiKey: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  stack = await startStack("registration");
  apiKey = newApiKey();
  // A workspace without credentials: the end-user registers the bank login through the UI.
  await stack.seedWorkspaces([{ workspaceId: crypto.randomUUID(), name: "파트너 예시", apiKey }]);
  partner = await startPartnerExample({ port: await freePort(), serviceUrl: stack.baseUrl, apiKey });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await partner?.close();
  await stack?.stop();
});

/** Each test in its own browser context, so no frame, cookie or cache of another test can answer. */
async function freshPage(): Promise<Page> {
  return (await browser.createBrowserContext()).newPage();
}

async function registrationFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector("iframe[title='기관 계정 연결']");
  const frame = (await handle!.contentFrame())!;
  await frame.waitForSelector("#f_loginId", { visible: true });
  return frame;
}

describe("registration through the SDK and the hosted UI in Chromium", () => {
  it("registers a sandbox bank login without the secret ever leaving the browser in clear, then collects with it", async () => {
    const page = await freshPage();
    await page.setViewport({ width: 1000, height: 800 });
    const bodies: { url: string; body: string }[] = [];
    page.on("request", (request) => {
      const body = request.postData();
      if (body) bodies.push({ url: request.url(), body });
    });

    await page.goto(partner.url);
    await page.screenshot({ path: path.join(SHOTS, "1-partner-page.png") });
    await page.click("#connect");
    const frame = await registrationFrame(page);
    await page.screenshot({ path: path.join(SHOTS, "2-registration-ui.png") });

    // A value off the credential-schema pattern is stopped in the browser.
    await frame.type("#f_loginId", "bad id!");
    await frame.type("#f_password", PASSWORD);
    await frame.click("#submit");
    expect(await frame.$eval("#f_loginId", (el) => (el as HTMLInputElement).validity.valid)).toBe(false);
    await page.screenshot({ path: path.join(SHOTS, "3-invalid-input.png") });

    await frame.$eval("#f_loginId", (el) => ((el as HTMLInputElement).value = ""));
    await frame.type("#f_loginId", "user_good");
    await frame.click("#submit");
    await page.waitForFunction(() => document.getElementById("status")?.textContent?.startsWith("연결되었습니다"), { timeout: 20_000 });
    await page.screenshot({ path: path.join(SHOTS, "4-connected.png") });

    const submitted = bodies.find((b) => b.url.endsWith("/connect/api/registrations"));
    expect(submitted).toBeDefined();
    expect(JSON.parse(submitted!.body).envelope).toMatchObject({ kid: expect.any(String), iv: expect.any(String), ct: expect.any(String) });
    for (const { body } of bodies) {
      expect(body).not.toContain(PASSWORD);
      expect(body).not.toContain("user_good");
    }

    const credentialId = await page.$eval("#status", (el) => (el as HTMLElement).dataset.credentialId);
    const api = client(stack, apiKey);
    expect((await api.json("GET", `/api/v1/credentials/${credentialId}`)).body).toMatchObject({ providerCode: "sandbox.bank", status: "ACTIVE" });
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
    const done = await api.waitForJob(job.id);
    expect(done).toMatchObject({ kind: "Succeeded", recordCount: 3 });
    expect((await api.json("GET", `/api/v1/data-jobs/${job.id}/results`)).body.data).toEqual(bankGroundTruth("user_good").accounts);
    await page.browserContext().close();
  });

  it("shows a used token as dead and tells the partner page through onError", async () => {
    const page = await freshPage();
    const issued = await client(stack, apiKey).json("POST", "/api/v1/registration-sessions", {
      registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }],
      originAllowlist: [partner.url],
    });
    await client(stack, apiKey).json("POST", `/api/v1/registration-sessions/${issued.body.sessionId}/cancel`);
    await page.goto(partner.url);
    await page.evaluate(
      (token, serviceUrl) =>
        (window as unknown as { CollectSDK: { openRegistration(o: object): void } }).CollectSDK.openRegistration({
          sessionToken: token,
          serviceUrl,
          onError: ({ code }: { code: string }) => (document.getElementById("status")!.textContent = `오류: ${code}`),
        }),
      issued.body.sessionToken,
      stack.baseUrl,
    );
    await page.waitForFunction(() => document.getElementById("status")?.textContent === "오류: REGISTRATION_SESSION_ALREADY_CANCELLED", { timeout: 15_000 });
    const frame = (await (await page.waitForSelector("iframe"))!.contentFrame())!;
    await frame.waitForSelector("#fatal:not([hidden])");
    await page.screenshot({ path: path.join(SHOTS, "5-cancelled-session.png") });
    await page.browserContext().close();
  });

  it("refuses to talk to a page whose origin is not on the allowlist", async () => {
    const page = await freshPage();
    const issued = await client(stack, apiKey).json("POST", "/api/v1/registration-sessions", {
      registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }],
      originAllowlist: ["https://elsewhere.example"],
    });
    await page.goto(partner.url);
    await page.evaluate(
      (token, serviceUrl) =>
        (window as unknown as { CollectSDK: { openRegistration(o: object): void } }).CollectSDK.openRegistration({ sessionToken: token, serviceUrl }),
      issued.body.sessionToken,
      stack.baseUrl,
    );
    const frame = (await (await page.waitForSelector("iframe"))!.contentFrame())!;
    await frame.waitForSelector("#fatal:not([hidden])");
    expect(await frame.$eval("#fatal", (el) => el.textContent)).toContain("열 수 없습니다");
    expect(await frame.$eval("#form", (el) => (el as HTMLElement).hidden)).toBe(true);
    await page.browserContext().close();
  });
});
