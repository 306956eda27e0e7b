// start-order: 6 (why: vitest.e2e.config.ts)
import type { BrowserContext, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startPartnerExample } from "../../examples/partner/server";
import { freePort } from "../../scripts/free-port";
import { transactionsBetween, userByLogin } from "../../sandbox/openbanking/ground-truth";
import { csvRows } from "../support/e2e/result-csv";
import { client, useStackAndBrowser } from "../support/e2e/stack";

type Json = Record<string, any>;

const { hasStarted, stack, browser } = useStackAndBrowser();
let api: ReturnType<typeof client>;
let partner: { url: string; close(): Promise<void> };

// The shared stack points openbanking at the sandbox's replica of KFTC, with the replica's 이용기관 keys
// (scripts/local-stack.ts); this file's workspace holds no consent until the person gives one below.
beforeAll(async () => {
  api = client(stack());
  partner = await startPartnerExample({ port: await freePort(), serviceUrl: stack().baseUrl, apiKey: stack().apiKey });
});
afterAll(async () => {
  await partner?.close();
  await replicaClock("DELETE");
});

const DAY = 86_400_000;
const USER = userByLogin("obuser1")!;
// Two of the person's three accounts: the checking account at 오픈은행 and the installment savings at 카카오뱅크.
const CHOSEN = [USER.accounts[0]!, USER.accounts[2]!];
const YEAR = { dateRangeStart: "2025-04-01", dateRangeEnd: "2026-03-31" };
const ACCOUNT_TYPES: Record<string, string> = { "1": "CHECKING", "2": "INSTALLMENT_SAVINGS" };
const FIELDS = ["accountNumber", "accountNumberFormatted", "accountType", "amount", "balance", "currencyCode", "description", "transactionAt"] as const;

/** What the replica's ledgers say the year's records are, every field but the derived `identifier`. */
function yearOfTruth(): Json[] {
  const iso = (d: string, t: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4)}+09:00`;
  return CHOSEN.flatMap((a) =>
    transactionsBetween(a.fintechUseNum, YEAR.dateRangeStart, YEAR.dateRangeEnd).map((t) => ({
      accountNumber: a.fintechUseNum,
      accountNumberFormatted: a.accountNumMasked,
      accountType: ACCOUNT_TYPES[a.accountType],
      amount: t.inout_type === "입금" ? t.tran_amt : -t.tran_amt,
      balance: t.after_balance_amt,
      currencyCode: "KRW",
      description: t.print_content,
      transactionAt: iso(t.tran_date, t.tran_time),
    })),
  );
}

const order = (r: Json) => `${r.accountNumber} ${r.transactionAt} ${r.balance}`;
const sorted = (rows: Json[]) => [...rows].sort((a, b) => order(a).localeCompare(order(b)));

/**
 * The person in Chromium, once the SDK is open on `page`: the hosted page opens a window at the click and sends it to
 * the authorization page, at the replica's stand-in; there they log in, tick `chosen` and agree, the replica sends the
 * window to our callback, and its page hands the answer to the hosted page, which completes the consent.
 */
async function consentInWindow(context: BrowserContext, page: Page, user: typeof USER, chosen: typeof CHOSEN): Promise<void> {
  const frame = (await (await page.waitForSelector("iframe[title='기관 계정 연결']"))!.contentFrame())!;
  const submit = await frame.waitForSelector("#submit", { visible: true });
  expect(await submit!.evaluate((el) => el.textContent)).toBe("오픈뱅킹에서 동의하기");
  const opened = context.waitForTarget((t) => t.url().includes("/openbanking/openapi.openbanking.or.kr/oauth/2.0/authorize"));
  await submit!.click();
  const window = (await (await opened).page())!;
  expect(new URL(window.url()).searchParams.get("redirect_uri")).toBe(`${stack().baseUrl}/connect/open-banking/callback`);
  const back = await agreeAtReplica(window, user, chosen);
  expect(back.startsWith(`${stack().baseUrl}/connect/open-banking/callback?`)).toBe(true);
  // The callback page hands KFTC's answer to the hosted page that opened it, which completes and closes the window.
  await vi.waitUntil(() => window.isClosed(), { timeout: 60_000, interval: 200 });
}

/** At the replica's page in `window`: log in as `user`, tick `chosen`, agree; answers the page the replica sent it back to. */
async function agreeAtReplica(window: Page, user: typeof USER, chosen: typeof CHOSEN): Promise<string> {
  await window.waitForSelector("input[name=user_id]");
  await window.type("input[name=user_id]", user.loginId);
  await window.type("input[name=password]", user.password);
  await Promise.all([window.waitForNavigation(), window.click("button[value=login]")]);
  for (const a of chosen) await window.click(`input[name=fintech_use_num][value="${a.fintechUseNum}"]`);
  const [back] = await Promise.all([window.waitForNavigation(), window.click("button[value=agree]")]);
  return back!.url();
}

/** The partner example's "오픈뱅킹으로 연결하기" pressed in a new page of `context`: the page, and the session its backend issued. */
async function pressConnect(context: BrowserContext): Promise<{ page: Page; sessionId: string }> {
  const page = await context.newPage();
  await page.goto(partner.url);
  const issued = page.waitForResponse((r) => r.url() === `${partner.url}/api/registration-session` && r.request().method() === "POST");
  await page.click("#connect-openbanking");
  const { sessionId } = (await (await issued).json()) as { sessionId: string };
  return { page, sessionId };
}

/** The partner example's "오픈뱅킹으로 연결하기" in a fresh browser context, through the person's consent: the session and the credential its backend confirmed. */
async function connectThroughExample(user: typeof USER, chosen: typeof CHOSEN): Promise<{ sessionId: string; credentialId: string }> {
  const context = await browser().createBrowserContext();
  try {
    const { page, sessionId } = await pressConnect(context);
    await consentInWindow(context, page, user, chosen);
    // The hosted page learns it from the service (it polls), tells the SDK, and the partner's backend confirms.
    await page.waitForFunction(() => document.getElementById("status")?.textContent?.startsWith("연결되었습니다"), { timeout: 60_000, polling: "mutation" });
    return { sessionId, credentialId: (await page.$eval("#status", (el) => (el as HTMLElement).dataset.credentialId))! };
  } finally {
    await context.close();
  }
}

/** The replica's token clock (sandbox/server.ts): PUT runs it from `at`, DELETE puts it back on real time. */
async function replicaClock(method: "PUT" | "DELETE", at?: number): Promise<void> {
  if (!hasStarted()) return;
  const res = await fetch(`${stack().sandboxUrl}/sandbox/openbanking/clock`, { method, headers: { "Content-Type": "application/json" }, body: at === undefined ? undefined : JSON.stringify({ at: new Date(at).toISOString() }) });
  expect(res.status).toBe(200);
}

/** One run of the worker's cron, as the deployment's every minute (wrangler dev runs none by itself). */
async function runCron(): Promise<void> {
  const res = await fetch(`${stack().baseUrl}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

const consentOf = async (credentialId: string) => (await api.json("GET", `/api/v1/credentials/${credentialId}`)).body;

describe("Open Banking end to end: the partner's page, the hosted page, the replica's consent, our callback", () => {
  it("registers a consent through the SDK in Chromium, collects a year of transactions equal to ground truth in JSON and CSV, and withdraws", async () => {
    const { sessionId, credentialId } = await connectThroughExample(USER, CHOSEN);
    expect((await api.json("GET", `/api/v1/registration-sessions/${sessionId}`)).body).toMatchObject({ status: "CONSUMED", credentialId });
    const credential = (await api.json("GET", `/api/v1/credentials/${credentialId}`)).body;
    expect(credential).toMatchObject({ providerCode: "openbanking", authMethod: "OPEN_BANKING", status: "ACTIVE" });
    expect(credential.consent.accounts).toEqual(
      CHOSEN.map((a) => ({ accountNumber: a.fintechUseNum, accountNumberFormatted: a.accountNumMasked, bankCode: a.bankCodeStd, bankName: a.bankName, displayName: a.accountAlias })),
    );
    expect(JSON.stringify(credential)).not.toMatch(/access|refresh_token|refreshToken/i);

    // A year of both consented accounts: twelve windows each, most ordinary months two pages.
    const job = await api.createJob({ providerCode: "openbanking", schema: "bank.transactions.cb.v1", params: YEAR });
    const done = await api.waitForJob(job.id);
    const truth = yearOfTruth();
    expect(truth.length).toBeGreaterThan(300);
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    const data = (await api.json("GET", `/api/v1/data-jobs/${job.id}/results`)).body.data as Json[];
    expect(new Set(data.map((r) => r.identifier)).size).toBe(data.length);
    expect(sorted(data.map((r) => Object.fromEntries(FIELDS.map((f) => [f, r[f]]))))).toEqual(sorted(truth));
    const rows = await csvRows(api, job.id);
    const column = (header: string) => rows[0]!.indexOf(header);
    expect(rows.length - 1).toBe(truth.length);
    const csvKey = (r: string[]) => `${r[column("계좌번호(오픈뱅킹: 핀테크이용번호)")]} ${r[column("거래일시")]} ${r[column("거래금액")]} ${r[column("거래후잔액")]}`;
    expect(rows.slice(1).map(csvKey).sort()).toEqual(truth.map((t) => `${t.accountNumber} ${t.transactionAt} ${t.amount} ${t.balance}`).sort());

    // Withdrawal: the credential and its tokens are gone; a job that names it is refused, one that does not has none.
    expect((await api.request("DELETE", `/api/v1/credentials/${credentialId}`)).status).toBe(204);
    const named = await api.json("POST", "/api/v1/data-jobs", { providerCode: "openbanking", schema: "bank.accounts.cb.v1", params: {}, credentialId });
    expect(named.body.code).toBe("CREDENTIAL_REVOKED");
    const unnamed = await api.createJob({ providerCode: "openbanking", schema: "bank.accounts.cb.v1", params: {} });
    expect(await api.waitForJob(unnamed.id)).toMatchObject({ kind: "Failed", error: { code: "CREDENTIAL_NOT_FOUND" } });
  });

  it("lets no second browser finish the consent: the authorization URL consented in a context that never opened the hosted page registers nothing", async () => {
    const holder = await browser().createBrowserContext();
    const other = await browser().createBrowserContext();
    try {
      const { page, sessionId } = await pressConnect(holder);
      const frame = (await (await page.waitForSelector("iframe[title='기관 계정 연결']"))!.contentFrame())!;
      const opened = holder.waitForTarget((t) => t.url().includes("/openbanking/openapi.openbanking.or.kr/oauth/2.0/authorize"));
      await (await frame.waitForSelector("#submit", { visible: true }))!.click();
      const authorizationUrl = (await opened).url();
      // Someone else, in a browser of their own, consents with the URL the token holder handed them.
      const stranger = await other.newPage();
      await stranger.goto(authorizationUrl);
      const back = await agreeAtReplica(stranger, USER, CHOSEN);
      expect(back.startsWith(`${stack().baseUrl}/connect/open-banking/callback?`)).toBe(true);
      expect((await api.json("GET", `/api/v1/registration-sessions/${sessionId}`)).body).toMatchObject({ status: "PENDING", credentialId: null });
      expect(await stranger.$eval("#orphan", (el) => (el as HTMLElement).hidden)).toBe(false);
      expect(await stranger.content()).not.toContain("동의가 끝났습니다");
      expect(await page.$eval("#status", (el) => el.textContent ?? "")).not.toMatch(/^연결되었습니다/);
    } finally {
      await Promise.all([holder.close(), other.close()]);
    }
  });

  it("refreshes the consent's tokens on the cron, and once KFTC has let them end, asks the person again through a recovery session", async () => {
    const user = userByLogin("obuser2")!;
    const chosen = [user.accounts[0]!];
    const { credentialId } = await connectThroughExample(user, chosen);
    // This stack's replica issues two-day tokens (test/support/e2e/profiles.ts): inside the week the cron refreshes ahead.
    const given = (await consentOf(credentialId)).consent;
    expect(given.refreshedAt).toBeNull();
    expect(Date.parse(given.tokenExpiresAt) - Date.now()).toBeLessThan(3 * DAY);

    // Two runs: the replica kills each refresh token it takes, so the second works only with the pair the first sealed.
    let last = given;
    for (let run = 0; run < 2; run++) {
      await runCron();
      const now = (await consentOf(credentialId)).consent;
      expect(now.refreshedAt).not.toBe(last.refreshedAt);
      expect(Date.parse(now.tokenExpiresAt)).toBeGreaterThan(Date.parse(last.tokenExpiresAt));
      expect(now.expiresAt).toBe(given.expiresAt);
      last = now;
    }
    const accounts = await api.createJob({ providerCode: "openbanking", schema: "bank.accounts.cb.v1", params: {}, credentialId });
    expect(await api.waitForJob(accounts.id)).toMatchObject({ kind: "Succeeded", recordCount: 1 });

    // Two weeks on at KFTC, with no refresh between: the access token and the refresh token (ten days longer) ended.
    // By our clock the access token still lives, so the cron's refused refresh is an early one: the tokens are kept
    // (docs/institutions/openbanking.md §1.7). The next job meets KFTC's refusal, tries its one refresh, and that
    // refusal, after KFTC ended the token, ends the consent.
    await replicaClock("PUT", Date.now() + 14 * DAY);
    await runCron();
    expect(await consentOf(credentialId)).toMatchObject({ status: "ACTIVE", refusal: null });
    const refused = await api.createJob({ providerCode: "openbanking", schema: "bank.accounts.cb.v1", params: {}, credentialId });
    expect(await api.waitForJob(refused.id)).toMatchObject({ kind: "Failed", error: { code: "NO_VALID_CREDENTIAL", category: "CREDENTIAL" } });
    expect(await consentOf(credentialId)).toMatchObject({ status: "ACTIVE", refusal: { code: "NO_VALID_CREDENTIAL" } });

    // The partner opens a recovery session in its page; the person consents again, and the same credential works.
    const recovery = await api.json("POST", "/api/v1/registration-sessions", { registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "openbanking" }], originAllowlist: [partner.url], recoverCredentialId: credentialId });
    expect(recovery.status, JSON.stringify(recovery.body)).toBe(201);
    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.goto(partner.url);
    await page.evaluate(
      (sessionToken, serviceUrl) => {
        const w = window as unknown as { CollectSDK: { openRegistration(o: object): void }; recovered?: string };
        w.CollectSDK.openRegistration({ sessionToken, serviceUrl, onSuccess: ({ sessionId }: { sessionId: string }) => (w.recovered = sessionId) });
      },
      recovery.body.sessionToken as string,
      stack().baseUrl,
    );
    await consentInWindow(context, page, user, chosen);
    await page.waitForFunction(() => (window as unknown as { recovered?: string }).recovered, { timeout: 60_000 });
    await context.close();
    expect((await api.json("GET", `/api/v1/registration-sessions/${recovery.body.sessionId}`)).body).toMatchObject({ status: "CONSUMED", credentialId });
    const restored = await consentOf(credentialId);
    expect(restored.refusal).toBeNull();
    expect(Date.parse(restored.consent.givenAt)).toBeGreaterThan(Date.parse(given.givenAt));
    const again = await api.createJob({ providerCode: "openbanking", schema: "bank.accounts.cb.v1", params: {}, credentialId });
    expect(await api.waitForJob(again.id)).toMatchObject({ kind: "Succeeded", recordCount: 1 });
  });

  it("waits while KFTC's window is open, brings it back on 창 다시 열기, and on 취소 closes it, says the person cancelled and leaves the session usable", async () => {
    const context = await browser().createBrowserContext();
    try {
      const { page, sessionId } = await pressConnect(context);
      const frame = (await (await page.waitForSelector("iframe[title='기관 계정 연결']"))!.contentFrame())!;
      const start = async () => {
        const opened = context.waitForTarget((t) => t.url().includes("/openbanking/openapi.openbanking.or.kr/oauth/2.0/authorize"));
        await (await frame.waitForSelector("#submit", { visible: true }))!.click();
        return (await (await opened).page())!;
      };
      const window = await start();
      await frame.waitForSelector("#consentWait", { visible: true });
      expect(await frame.$eval("#reopenConsent", (el) => el.textContent)).toBe("창 다시 열기");
      await frame.click("#reopenConsent");
      expect(window.isClosed()).toBe(false);
      expect(await frame.$eval("#consentWait", (el) => (el as HTMLElement).hidden)).toBe(false);

      await frame.click("#cancelConsent");
      await vi.waitUntil(() => window.isClosed(), { timeout: 10_000, interval: 100 });
      await frame.waitForFunction(() => document.getElementById("formError")?.textContent?.startsWith("동의를 취소했습니다"), { timeout: 10_000, polling: "mutation" });
      expect(await frame.$eval("#consentWait", (el) => (el as HTMLElement).hidden)).toBe(true);
      expect(await frame.$eval("#formError", (el) => el.textContent ?? "")).not.toContain("LOGIN_FAILED");
      expect(await page.$eval("#status", (el) => el.textContent ?? "")).not.toMatch(/오류|LOGIN_FAILED/);
      expect((await api.json("GET", `/api/v1/registration-sessions/${sessionId}`)).body).toMatchObject({ status: "PENDING", credentialId: null });

      // The same session starts over from the same button.
      const again = await start();
      await frame.waitForSelector("#consentWait", { visible: true });
      expect(await frame.$eval("#formError", (el) => el.textContent)).toBe("");
      expect(again.isClosed()).toBe(false);
    } finally {
      await context.close();
    }
  });
});
