import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPartnerExample } from "../../examples/partner/server";
import { freePort } from "../../scripts/free-port";
import { SIMPLE_AUTH_PEOPLE } from "../../sandbox/hometax/simple-auth-people";
import { client, useStackAndBrowser } from "../support/e2e/stack";

// The demo business's owner: the replica's apps know them (sandbox/hometax/simple-auth-people.ts).
const PERSON = SIMPLE_AUTH_PEOPLE[0]!;

const { stack, browser } = useStackAndBrowser();
let partner: { url: string; close(): Promise<void> };
let apiKey: string;

beforeAll(async () => {
  apiKey = stack().named["hometax/simple-auth"].apiKey;
  partner = await startPartnerExample({ port: await freePort(), serviceUrl: stack().baseUrl, apiKey });
});
afterAll(async () => {
  await partner?.close();
});

/** The sandbox phone as the person taps it: their standing requests approved. */
async function approveOnPhone(): Promise<number> {
  const res = await fetch(`${stack().sandboxUrl}/_sandbox/hometax/phone/approve`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: PERSON.name }) });
  return ((await res.json()) as { answered: number }).answered;
}

describe("Hometax by 간편인증 through the partner's page, the hosted page in Chromium and the replica", () => {
  it("registers a login the person approves on their phone while the page counts down, and runs its first job on that approval", async () => {
    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.goto(partner.url);
    await page.click("#connect-hometax");
    const handle = await page.waitForSelector("iframe[title='기관 계정 연결']");
    const frame: Frame = (await handle!.contentFrame())!;
    // Hometax takes an ID login or 간편인증: the person picks the method, and the page asks for what that one needs.
    await frame.waitForSelector("#m_SIMPLE_AUTH", { visible: true });
    await frame.click("#m_SIMPLE_AUTH");
    await frame.waitForSelector("#f_phone", { visible: true });
    expect(await frame.$eval("#methodHeader", (el) => el.textContent)).toContain("간편인증");
    await frame.select("#f_provider", "kakao");
    await frame.type("#f_name", PERSON.name);
    await frame.type("#f_birthDate", PERSON.birthDate);
    await frame.type("#f_phone", PERSON.phone);
    await frame.click("#submit");

    // The page says what to do, with the time left, and stores nothing until the phone answers.
    await frame.waitForFunction(() => !document.getElementById("progress")?.hidden && /남은 시간/.test(document.getElementById("countdown")?.textContent ?? ""), { timeout: 30_000 });
    expect(await frame.$eval("#progressText", (el) => el.textContent)).toContain("카카오톡");
    const api = client(stack(), apiKey);
    const before = await api.json("GET", "/api/v1/credentials?providerCode=hometax");
    expect((before.body.items as { authMethod: string }[]).some((c) => c.authMethod === "SIMPLE_AUTH")).toBe(false);

    expect(await approveOnPhone()).toBe(1);
    // The hosted page says connected and the SDK closes its frame; the partner's backend confirms with the service.
    await page.waitForFunction(() => document.getElementById("status")?.textContent?.startsWith("연결되었습니다"), { timeout: 60_000, polling: "mutation" });
    const credentialId = (await page.$eval("#status", (el) => (el as HTMLElement).dataset.credentialId))!;
    await context.close();

    // The first job rides on the login the person just approved: nothing waits for the phone again.
    let asked = 0;
    const job = await api.createJob({ providerCode: "hometax", schema: "taxportal.tax-invoices.sales.v1", params: { dateRangeStart: "2025-10-01", dateRangeEnd: "2025-10-31" }, credentialId });
    const done = await api.waitForJob(job.id, (snapshot) => {
      if (snapshot.awaitingHolder) asked++;
    });
    expect(done, JSON.stringify(done)).toMatchObject({ kind: "Succeeded" });
    expect(asked).toBe(0);
    const standing = (await (await fetch(`${stack().sandboxUrl}/_sandbox/hometax/phone`)).json()) as { items: unknown[] };
    expect(standing.items).toEqual([]);
  });
});
