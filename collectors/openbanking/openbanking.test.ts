import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenBankingConsent, TaskUnit } from "../adapter";
import { institutionHttp } from "../kit/protocol/institution-http";
import { BankAccountRecord, BankTransactionRecord } from "../../contracts/records/bank";
import { institutionFor } from "../registry";
import { type AccountBehaviour, accountOf, balanceOf, REPLICA_CLIENT, transactionsBetween, userByLogin } from "../../sandbox/openbanking/ground-truth";
import { fromDay, toDay } from "../../sandbox/dates";
import { kstDate } from "../../contracts/korean-time";
import { openBankingStandIns } from "../../sandbox/openbanking/stand-ins";
import { type SandboxServer, startSandbox } from "../../sandbox/server";
import { failureCodeOf } from "./failures";
import { OPENBANKING_HOSTS } from "./hosts";
import { ACCOUNTS_SCHEMA, openBankingAdapter, TRANSACTIONS_SCHEMA } from "./index";
import { authorizationUrl, exchangeCode, newState, readCallback, refreshConsent, userMe } from "./oauth";
import type { OpenBankingOptions } from "./options";

const REDIRECT = "https://partner.example/openbanking/callback";
const DAY = 86_400_000;
const sandboxes: SandboxServer[] = [];
let replica: SandboxServer;

beforeAll(async () => {
  replica = await startSandbox({ port: 0, openbanking: { callbackUrls: [REDIRECT] } });
  sandboxes.push(replica);
});
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

/** Requests that left the adapter, as the replica's paths and queries. */
function connect(sandbox: SandboxServer) {
  const sent: URL[] = [];
  const http = institutionHttp({
    hosts: OPENBANKING_HOSTS,
    standIns: openBankingStandIns(sandbox.url),
    transport: (input, init) => {
      sent.push(new URL(String(input)));
      return fetch(input, init);
    },
  });
  return { http, sent };
}

const adapterWith = (options: Partial<OpenBankingOptions> = {}, deps: Parameters<typeof openBankingAdapter>[1] = {}) => openBankingAdapter({ environment: "testbed", minIntervalMs: 0, ...options }, deps);

/** A real host's URL at the sandbox's stand-in. */
const standIn = (sandbox: SandboxServer, real: string) => {
  const url = new URL(real);
  return `${sandbox.url}/openbanking/${url.hostname}${url.pathname}${url.search}`;
};

/** The person's browser on the replica's consent page, by plain HTTP: log in, tick accounts, agree or cancel. */
async function consentInBrowser(sandbox: SandboxServer, loginId: string, fintechs: string[] | "all", action: "agree" | "cancel" = "agree", state = newState()) {
  const user = userByLogin(loginId)!;
  const start = authorizationUrl({ environment: "testbed", clientId: REPLICA_CLIENT.clientId, redirectUri: REDIRECT, state, clientInfo: "session-1" });
  const first = await fetch(standIn(sandbox, start));
  const session = /name="session" value="([^"]+)"/.exec(await first.text())?.[1];
  expect(session).toBeTruthy();
  const base = standIn(sandbox, start).replace(/authorize\?.*$/, "");
  const post = (path: string, form: URLSearchParams) => fetch(`${base}${path}`, { method: "POST", body: form, redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  const login = await post("authorize_login", new URLSearchParams({ session: session!, user_id: user.loginId, password: user.password, action: "login" }));
  expect(await login.text()).toContain("조회할 계좌를 선택해 주세요");
  const form = new URLSearchParams({ session: session!, action });
  for (const f of fintechs === "all" ? user.accounts.map((a) => a.fintechUseNum) : fintechs) form.append("fintech_use_num", f);
  const answer = await post("authorize_consent", form);
  expect(answer.status).toBe(302);
  return { callback: new URL(answer.headers.get("location")!), state };
}

/** Consent, callback, code exchange: the worker's registration, end to end against the replica. */
async function consented(sandbox: SandboxServer, loginId: string, fintechs: string[] | "all" = "all", now?: () => number) {
  const { callback, state } = await consentInBrowser(sandbox, loginId, fintechs);
  const { code } = readCallback(callback.searchParams, state);
  return exchangeCode(connect(sandbox).http, "testbed", REPLICA_CLIENT, code, REDIRECT, { now });
}

const unit = (schema: string, target: { id: string; attributes: Record<string, string> }, start?: string, end?: string): TaskUnit => ({
  jobId: "job",
  unitIndex: 0,
  schema,
  target,
  segment: start && end ? { start, end } : null,
  params: {},
});

async function failureOf(promise: Promise<unknown>): Promise<{ code: string; retryAfterSeconds?: number; message?: string }> {
  return promise.then(
    () => ({ code: "no failure" }),
    (err: { code?: string; retryAfterSeconds?: number; message?: string }) => ({ code: err.code ?? String(err), retryAfterSeconds: err.retryAfterSeconds, message: err.message }),
  );
}

const ctx = { baseUrl: "https://testapi.openbanking.or.kr/" };

describe("Open Banking adapter against the replica", () => {
  it("registers a consent, lists the accounts, reads balances and a year of transactions equal to ground truth", async () => {
    const user = userByLogin("obuser1")!;
    const grant = await consented(replica, "obuser1");
    expect(grant.credential).toMatchObject({ authMethod: "OPEN_BANKING", userSeqNo: user.userSeqNo, scope: "login inquiry", clientUseCode: REPLICA_CLIENT.clientUseCode });
    expect(Date.parse(grant.refreshableUntil) - Date.parse(grant.credential.expiresAt)).toBe(10 * DAY);
    const me = await userMe(connect(replica).http, "testbed", grant.credential);
    expect(me.accounts.map((a) => a.fintechUseNum)).toEqual(user.accounts.map((a) => a.fintechUseNum));

    const adapter = adapterWith();
    const { http, sent } = connect(replica);
    const session = await adapter.login(http, grant.credential, ctx);
    const targets = await adapter.discoverTargets(session, TRANSACTIONS_SCHEMA, ctx);
    expect(targets.map((t) => t.id)).toEqual(user.accounts.map((a) => a.fintechUseNum));
    expect(targets[0]!.attributes).toMatchObject({ bankCodeStd: "097", bankName: "오픈은행", accountNumberFormatted: user.accounts[0]!.accountNumMasked, kftcAccountType: "1", displayName: "생활비통장" });

    for (const [i, target] of targets.entries()) {
      const account = user.accounts[i]!;
      const [record] = await adapter.collect(session, unit(ACCOUNTS_SCHEMA, target), ctx);
      BankAccountRecord.parse(record);
      const { balance, available } = balanceOf(account.fintechUseNum);
      expect(record).toEqual({
        schema: ACCOUNTS_SCHEMA,
        accountNumber: account.fintechUseNum,
        accountNumberFormatted: account.accountNumMasked,
        accountType: account.accountType === "1" ? "CHECKING" : "INSTALLMENT_SAVINGS",
        availableBalance: available,
        balance,
        currencyCode: "KRW",
        displayName: account.accountAlias,
        productName: account.productName,
      });

      const records = await adapter.collect(session, unit(TRANSACTIONS_SCHEMA, target, "2025-01-01", "2025-12-31"), ctx);
      const truth = transactionsBetween(account.fintechUseNum, "2025-01-01", "2025-12-31");
      expect(truth.length, account.accountAlias).toBeGreaterThan(account.accountType === "1" ? 300 : 10);
      expect(new Set(records.map((r) => r.identifier)).size).toBe(records.length);
      expect(records.map((r) => [r.transactionAt, r.amount, r.balance, r.description])).toEqual(
        truth.map((t) => [`${t.tran_date.slice(0, 4)}-${t.tran_date.slice(4, 6)}-${t.tran_date.slice(6)}T${t.tran_time.slice(0, 2)}:${t.tran_time.slice(2, 4)}:${t.tran_time.slice(4)}+09:00`, t.inout_type === "입금" ? t.tran_amt : -t.tran_amt, t.after_balance_amt, t.print_content]),
      );
      for (const r of records) BankTransactionRecord.parse(r);
    }
    // Twelve 31-day windows per account, and pages past the first within them.
    const lists = sent.filter((u) => u.pathname.endsWith("/transaction_list/fin_num"));
    const checking = lists.filter((u) => u.searchParams.get("fintech_use_num") === user.accounts[0]!.fintechUseNum);
    expect(new Set(checking.map((u) => u.searchParams.get("from_date"))).size).toBe(12);
    expect(checking.filter((u) => u.searchParams.has("befor_inquiry_trace_info")).length).toBeGreaterThan(5);
    expect(checking.filter((u) => !u.searchParams.has("befor_inquiry_trace_info")).length).toBe(12);
    const ids = sent.map((u) => u.searchParams.get("bank_tran_id")).filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("holds a new user's last month, up to today, paged past KFTC's 25 rows", async () => {
    const grant = await consented(replica, "obuser1");
    const account = userByLogin("obuser1")!.accounts[0]!;
    const adapter = adapterWith();
    const { http, sent } = connect(replica);
    const session = await adapter.login(http, grant.credential, ctx);
    const [target] = (await adapter.discoverTargets(session, TRANSACTIONS_SCHEMA, ctx)).filter((t) => t.id === account.fintechUseNum);
    const today = kstDate();
    const start = fromDay(toDay(today) - 29);
    const records = await adapter.collect(session, unit(TRANSACTIONS_SCHEMA, target!, start, today), ctx);
    const truth = transactionsBetween(account.fintechUseNum, start, today);
    expect(truth.length).toBeGreaterThan(25);
    expect(records.map((r) => [r.transactionAt, r.amount, r.balance])).toEqual(
      truth.map((t) => [`${t.tran_date.slice(0, 4)}-${t.tran_date.slice(4, 6)}-${t.tran_date.slice(6)}T${t.tran_time.slice(0, 2)}:${t.tran_time.slice(2, 4)}:${t.tran_time.slice(4)}+09:00`, t.inout_type === "입금" ? t.tran_amt : -t.tran_amt, t.after_balance_amt]),
    );
    expect(String(records.at(-1)!.transactionAt).slice(0, 10)).toBe(today);
    expect(sent.filter((u) => u.pathname.endsWith("/transaction_list/fin_num") && u.searchParams.has("befor_inquiry_trace_info")).length).toBeGreaterThan(0);
  });

  it("keeps a past day's rows whatever day the ledger is viewed on, and every month of an ordinary account holds more than a page", () => {
    const account = userByLogin("obuser2")!.accounts[0]!;
    const march = (viewedOn: string) => transactionsBetween(account.fintechUseNum, "2026-03-01", "2026-03-31", viewedOn);
    expect(march("2026-04-01")).toEqual(march("2027-09-15"));
    for (let month = new Date("2025-01-01T00:00:00Z"); month.getTime() < Date.parse("2027-12-01T00:00:00Z"); month.setUTCMonth(month.getUTCMonth() + 1)) {
      const first = month.toISOString().slice(0, 10);
      const last = fromDay(toDay(new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1)).toISOString().slice(0, 10)) - 1);
      expect(transactionsBetween(account.fintechUseNum, first, last, "2027-12-31").length, first).toBeGreaterThan(25);
    }
  });

  it("gives the same records, identifiers included, whatever the period is cut into", async () => {
    const grant = await consented(replica, "obuser2");
    const account = userByLogin("obuser2")!.accounts[0]!;
    const collect = async (maxPeriodDays: number) => {
      const adapter = adapterWith({ maxPeriodDays });
      const session = await adapter.login(connect(replica).http, grant.credential, ctx);
      const [target] = (await adapter.discoverTargets(session, TRANSACTIONS_SCHEMA, ctx)).filter((t) => t.id === account.fintechUseNum);
      return adapter.collect(session, unit(TRANSACTIONS_SCHEMA, target!, "2025-02-10", "2026-03-31"), ctx);
    };
    const [daily, monthly, whole] = await Promise.all([collect(7), collect(31), collect(500)]);
    expect(monthly.length).toBe(transactionsBetween(account.fintechUseNum, "2025-02-10", "2026-03-31").length);
    expect(daily).toEqual(monthly);
    expect(whole).toEqual(monthly);
  });

  it("splits by maxPeriodDays so a replica that refuses long periods still answers", async () => {
    const strict = await startSandbox({ port: 0, openbanking: { maxPeriodDays: 31, callbackUrls: [REDIRECT] } });
    sandboxes.push(strict);
    const grant = await consented(strict, "obuser1");
    const run = async (maxPeriodDays: number) => {
      const adapter = adapterWith({ maxPeriodDays });
      const session = await adapter.login(connect(strict).http, grant.credential, ctx);
      const [target] = await adapter.discoverTargets(session, TRANSACTIONS_SCHEMA, ctx);
      return adapter.collect(session, unit(TRANSACTIONS_SCHEMA, target!, "2025-03-01", "2025-06-30"), ctx);
    };
    expect(await run(31)).toHaveLength(transactionsBetween(userByLogin("obuser1")!.accounts[0]!.fintechUseNum, "2025-03-01", "2025-06-30").length);
    expect((await failureOf(run(120))).code).toBe("UNKNOWN");
  });

  it("maps a refused consent, a foreign state and a used code to LOGIN_FAILED", async () => {
    const refused = await consentInBrowser(replica, "obuser1", [], "cancel");
    expect(refused.callback.searchParams.get("error")).toBe("access_denied");
    expect(refused.callback.origin + refused.callback.pathname).toBe(REDIRECT);
    expect(() => readCallback(refused.callback.searchParams, refused.state)).toThrow(expect.objectContaining({ code: "LOGIN_FAILED" }));

    const { callback, state } = await consentInBrowser(replica, "obuser1", "all");
    expect(callback.searchParams.get("client_info")).toBe("session-1");
    expect(() => readCallback(callback.searchParams, newState())).toThrow(expect.objectContaining({ code: "LOGIN_FAILED" }));
    const { code } = readCallback(callback.searchParams, state);
    await exchangeCode(connect(replica).http, "testbed", REPLICA_CLIENT, code, REDIRECT);
    expect((await failureOf(exchangeCode(connect(replica).http, "testbed", REPLICA_CLIENT, code, REDIRECT))).code).toBe("LOGIN_FAILED");
    // Our own keys wrong: the operators' problem, UNKNOWN with KFTC's message.
    const again = await consentInBrowser(replica, "obuser1", "all");
    const wrongKeys = await failureOf(exchangeCode(connect(replica).http, "testbed", { ...REPLICA_CLIENT, clientSecret: "wrong" }, readCallback(again.callback.searchParams, again.state).code, REDIRECT));
    expect(wrongKeys).toMatchObject({ code: "UNKNOWN", message: expect.stringContaining("3000201") });
  });

  it("opens the authorization page only for a registered Callback URL, as KFTC does (O0001 [3000114])", async () => {
    const ask = async (redirectUri: string) => {
      const url = authorizationUrl({ environment: "testbed", clientId: REPLICA_CLIENT.clientId, redirectUri, state: newState() });
      return (await fetch(standIn(replica, url))).text();
    };
    expect(await ask(REDIRECT)).toContain('name="session"');
    for (const other of ["https://attacker.example/openbanking/callback", `${REDIRECT}/more`, `${REDIRECT}?next=1`, REDIRECT.replace("https:", "http:")]) {
      const refused = await ask(other);
      expect(refused, other).not.toContain('name="session"');
      expect(JSON.parse(refused)).toEqual({ rsp_code: "O0001", rsp_message: "인증 파라미터 오류([3000114])" });
    }
  });

  it("refreshes an expired token once and hands the new tokens over; an expired refresh token is NO_VALID_CREDENTIAL", async () => {
    let clock = Date.now();
    const timed = await startSandbox({ port: 0, openbanking: { now: () => clock, callbackUrls: [REDIRECT] } });
    sandboxes.push(timed);
    const grant = await consented(timed, "obuser1", "all", () => clock);
    const keys = { clientId: REPLICA_CLIENT.clientId, clientSecret: REPLICA_CLIENT.clientSecret };
    const persisted: OpenBankingConsent[] = [];
    const refresher = {
      async refresh(http: Parameters<typeof refreshConsent>[0], credential: OpenBankingConsent) {
        const next = await refreshConsent(http, "testbed", keys, credential, new Date(clock).toISOString(), { now: () => clock });
        persisted.push(next.credential);
        return next;
      },
    };
    const firstAccount = userByLogin("obuser1")!.accounts[0]!;
    const balance = async (credential: OpenBankingConsent, withRefresher: boolean, now: () => number) => {
      const adapter = adapterWith({}, { now, refresher: withRefresher ? refresher : undefined });
      const { http, sent } = connect(timed);
      const outcome = adapter.login(http, credential, ctx).then(async (session) => {
        const [target] = await adapter.discoverTargets(session, ACCOUNTS_SCHEMA, ctx);
        return adapter.collect(session, unit(ACCOUNTS_SCHEMA, target!), ctx);
      });
      return { outcome: await failureOf(outcome), records: await outcome.catch(() => []), sent };
    };

    clock += 91 * DAY;
    // By the adapter's clock the token has ended: refused before a request leaves without a refresher.
    const local = await balance(grant.credential, false, () => clock);
    expect(local.outcome.code).toBe("NO_VALID_CREDENTIAL");
    expect(local.sent).toEqual([]);
    // By KFTC's clock only (the adapter's says valid): O0003 is NO_VALID_CREDENTIAL without a refresher.
    expect((await balance(grant.credential, false, Date.now)).outcome.code).toBe("NO_VALID_CREDENTIAL");
    // With one, the session refreshes once and reads on.
    const refreshed = await balance(grant.credential, true, Date.now);
    expect(refreshed.records[0]).toMatchObject({ accountNumber: firstAccount.fintechUseNum, balance: balanceOf(firstAccount.fintechUseNum).balance });
    expect(persisted).toHaveLength(1);
    expect(persisted[0]!.accessToken).not.toBe(grant.credential.accessToken);
    expect(Date.parse(persisted[0]!.expiresAt)).toBe(clock + 90 * DAY);
    // The old refresh token died with the refresh.
    expect((await failureOf(refreshConsent(connect(timed).http, "testbed", keys, grant.credential, new Date(clock).toISOString()))).code).toBe("NO_VALID_CREDENTIAL");
    // Past the refresh token's own end (access + 10 days), the consent cannot be renewed.
    clock += 101 * DAY;
    expect((await balance(persisted[0]!, true, () => clock)).outcome.code).toBe("NO_VALID_CREDENTIAL");
  });

  it("refreshes at the token's end by default, within the skew only when refreshing ahead, and once on an O0003 of a token KFTC ended early", async () => {
    const grant = await consented(replica, "obuser2");
    const keys = { clientId: REPLICA_CLIENT.clientId, clientSecret: REPLICA_CLIENT.clientSecret };
    const refreshed: OpenBankingConsent[] = [];
    const refresher = {
      async refresh(http: Parameters<typeof refreshConsent>[0], credential: OpenBankingConsent) {
        const next = await refreshConsent(http, "testbed", keys, credential, new Date().toISOString());
        refreshed.push(next.credential);
        return next;
      },
    };
    // A minute before the token's end: used as it is by default (a refresh now may be one KFTC refuses), refreshed ahead.
    const ending = { ...grant.credential, expiresAt: new Date(Date.now() + 60_000).toISOString() };
    await adapterWith({}, { refresher }).login(connect(replica).http, ending, ctx);
    expect(refreshed).toHaveLength(0);
    await adapterWith({ refreshPolicy: "ahead" }, { refresher }).login(connect(replica).http, ending, ctx);
    expect(refreshed).toHaveLength(1);

    // KFTC ends the access token early (the replica's switch): O0003, NO_VALID_CREDENTIAL without a refresher, one refresh with one.
    const current = refreshed[0]!;
    const switched = await fetch(`${replica.url}/sandbox/openbanking/tokens`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: current.accessToken, switch: "end-access" }) });
    expect(switched.status).toBe(200);
    expect((await failureOf(adapterWith().login(connect(replica).http, current, ctx))).code).toBe("NO_VALID_CREDENTIAL");
    const { http, sent } = connect(replica);
    const session = await adapterWith({}, { refresher }).login(http, current, ctx);
    expect(session.accounts.size).toBe(userByLogin("obuser2")!.accounts.length);
    expect(refreshed).toHaveLength(2);
    expect(sent.filter((u) => u.pathname.endsWith("/account/list"))).toHaveLength(2);
  });

  it("maps each failure of the replica's failing accounts to its catalog code", async () => {
    const grant = await consented(replica, "obfail");
    const adapter = adapterWith();
    const session = await adapter.login(connect(replica).http, grant.credential, ctx);
    const targets = await adapter.discoverTargets(session, ACCOUNTS_SCHEMA, ctx);
    const run = (behaviour: AccountBehaviour, schema: string, options: Partial<OpenBankingOptions> = {}) => {
      const target = targets.find((t) => t.id === accountOf("obfail", behaviour).fintechUseNum)!;
      const a = options === undefined ? adapter : adapterWith(options);
      return a.login(connect(replica).http, grant.credential, ctx).then((s) => a.collect(s, unit(schema, target, "2025-01-01", "2025-03-31"), ctx));
    };
    const outcomes = Object.fromEntries(
      await Promise.all(
        (["closed", "maintenance", "quota", "consent-expired", "bank-unknown"] as const).map(async (b) => [b, (await failureOf(run(b, TRANSACTIONS_SCHEMA))).code] as const),
      ),
    );
    expect(outcomes).toEqual({ closed: "INVALID_ACCOUNT_FOR_SERVICE", maintenance: "PROVIDER_TIME_WINDOW", quota: "RATE_LIMITED", "consent-expired": "NO_VALID_CREDENTIAL", "bank-unknown": "UNKNOWN" });
    expect(await failureOf(run("quota", ACCOUNTS_SCHEMA))).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 3600 });
    expect((await failureOf(run("bank-unknown", ACCOUNTS_SCHEMA))).message).toContain("818");
    // A bank that sends the same page again: malformed, never duplicates; its balance still reads.
    expect((await failureOf(run("repeat-page", TRANSACTIONS_SCHEMA))).code).toBe("PROVIDER_RESPONSE_MALFORMED");
    expect(await run("repeat-page", ACCOUNTS_SCHEMA)).toHaveLength(1);
    // 거래내역 없음: no rows by default, a failure when A0018 is not taken as empty.
    expect(await run("no-transactions", TRANSACTIONS_SCHEMA)).toEqual([]);
    expect((await failureOf(run("no-transactions", TRANSACTIONS_SCHEMA, { a0018IsEmpty: false }))).code).toBe("UNKNOWN");
    // An account the consent does not cover.
    const stranger = { id: userByLogin("obuser2")!.accounts[0]!.fintechUseNum, attributes: {} };
    expect((await failureOf(adapter.collect(session, unit(ACCOUNTS_SCHEMA, stranger), ctx))).code).toBe("INVALID_ACCOUNT_FOR_SERVICE");
  });

  it("reads a period without rows as empty whether the bank says A0000 with [] or A0018", async () => {
    const quiet = await startSandbox({ port: 0, openbanking: { emptyPeriod: "A0018", callbackUrls: [REDIRECT] } });
    sandboxes.push(quiet);
    for (const sandbox of [replica, quiet]) {
      const grant = await consented(sandbox, "obuser1");
      const adapter = adapterWith();
      const session = await adapter.login(connect(sandbox).http, grant.credential, ctx);
      const [target] = await adapter.discoverTargets(session, TRANSACTIONS_SCHEMA, ctx);
      expect(await adapter.collect(session, unit(TRANSACTIONS_SCHEMA, target!, "2024-01-01", "2024-02-29"), ctx)).toEqual([]);
    }
  });

  it("maps KFTC's codes to the failure catalog", () => {
    expect(
      [["O0002"], ["O0003"], ["O0011"], ["A0334"], ["A0020"], ["O0008"], ["O0009"], ["A0002", "415"], ["A0002", "412"], ["A0002", "468"], ["A0002", "999"], ["A0004"], ["Z9999"]].map(([rsp, bank]) => failureCodeOf(rsp!, bank)),
    ).toEqual(["NO_VALID_CREDENTIAL", "NO_VALID_CREDENTIAL", "NO_VALID_CREDENTIAL", "NO_VALID_CREDENTIAL", "PROVIDER_TIME_WINDOW", "RATE_LIMITED", "RATE_LIMITED", "INVALID_ACCOUNT_FOR_SERVICE", "INVALID_ACCOUNT_FOR_SERVICE", "NO_VALID_CREDENTIAL", "UNKNOWN", "UNKNOWN", "UNKNOWN"]);
  });

  it("builds the authorization URL of the sources and is registered as provider openbanking", () => {
    const url = new URL(authorizationUrl({ environment: "production", clientId: "client", redirectUri: REDIRECT, state: "s".repeat(32) }));
    expect(url.origin + url.pathname).toBe("https://openapi.openbanking.or.kr/oauth/2.0/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({ response_type: "code", client_id: "client", redirect_uri: REDIRECT, scope: "login inquiry", state: "s".repeat(32), auth_type: "0" });
    expect(newState()).toMatch(/^[A-Za-z0-9]{32}$/);
    const institution = institutionFor("openbanking", { sandboxBaseUrl: "http://127.0.0.1:1" });
    expect(institution).toMatchObject({ kind: "protocol", baseUrl: "https://openapi.openbanking.or.kr/" });
  });
});
