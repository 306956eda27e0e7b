import { createServer } from "node:http";
import type { InstitutionHttp } from "../../collectors/adapter";
import { ACCOUNTS_SCHEMA, authorizationUrl, exchangeCode, newState, openBankingAdapter, type OpenBankingKeys, readCallback, refreshConsent, TRANSACTIONS_SCHEMA, userMe } from "../../collectors/openbanking";
import type { Step } from "./hometax";

const failed = (err: unknown) => {
  const { code, message } = err as { code?: string; message?: string };
  return `${code ?? "ERROR"}: ${message ?? String(err)}`;
};

/** A small server on this machine that takes KFTC's one redirect back (the app's registered Callback URL). */
export interface CallbackReceiver {
  /** `http://localhost:<port>/callback`: register exactly this as the app's Callback URL at KFTC. */
  redirectUri: string;
  /** The first callback's query, answered to the browser with a page saying it may be closed. */
  query: Promise<URLSearchParams>;
  close(): Promise<void>;
}

export async function receiveCallback(port: number, timeoutMs: number): Promise<CallbackReceiver> {
  let resolve!: (q: URLSearchParams) => void;
  let reject!: (err: Error) => void;
  const query = new Promise<URLSearchParams>((ok, fail) => ((resolve = ok), (reject = fail)));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== "/callback") return void res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end('<!doctype html><html lang="ko"><meta charset="utf-8"><p>실기관 확인이 응답을 받았습니다. 이 창을 닫고 터미널을 보세요.</p></html>');
    resolve(url.searchParams);
  });
  await new Promise<void>((ok, fail) => server.once("error", fail).listen(port, "127.0.0.1", () => ok()));
  const timer = setTimeout(() => reject(new Error(`no callback within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  const actual = (server.address() as { port: number }).port;
  return {
    redirectUri: `http://localhost:${actual}/callback`,
    query: query.finally(() => clearTimeout(timer)),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** A real host's URL at its stand-in (INSTITUTION_BASE_URLS' `openbanking`), path and query kept, as the worker maps it. */
export function atStandIn(real: string, standIns: Readonly<Record<string, string>> | undefined): string {
  const url = new URL(real);
  const base = standIns?.[url.hostname];
  return base ? `${base.replace(/\/+$/, "")}${url.pathname}${url.search}` : real;
}

export interface OpenBankingCheckInput {
  /** Calls the testbed (or its stand-in), through the egress. */
  http: InstitutionHttp;
  /** The developer's testbed app: client id, secret and 이용기관 code (from the environment). */
  keys: OpenBankingKeys;
  /** Where the callback server listens (0: any free port, for tests). */
  port: number;
  /** The authorization URL as a browser should open it (a stand-in mapped here), then shown to the person. */
  showAuthorizationUrl(url: string): void | Promise<void>;
  /** The month of transactions to count (YYYY-MM-DD, inclusive). */
  month: { start: string; end: string };
  /** How long the person has to consent. */
  timeoutMs?: number;
  /** Maps the real authorization URL to what a browser here reaches (INSTITUTION_BASE_URLS); unchanged when absent. */
  browserUrl?: (real: string) => string;
  /** The adapter's pacing; its default (250 ms) when absent. */
  minIntervalMs?: number;
}

/**
 * The live check of Open Banking (docs/institutions/openbanking.md §12), against KFTC's testbed: the authorization URL
 * for the person to open, the callback received on localhost, the code exchanged, the accounts listed and one month of
 * transactions of one account read through the adapter, then whether KFTC takes a refresh before the access token's end
 * (the adapter's `refreshPolicy`). Counts only: no token, account number or record leaves this
 * function, and nothing is stored.
 */
export async function checkOpenBanking(input: OpenBankingCheckInput): Promise<Step[]> {
  const steps: Step[] = [];
  const receiver = await receiveCallback(input.port, input.timeoutMs ?? 10 * 60_000);
  try {
    const state = newState();
    const real = authorizationUrl({ environment: "testbed", clientId: input.keys.clientId, redirectUri: receiver.redirectUri, state });
    await input.showAuthorizationUrl(input.browserUrl ? input.browserUrl(real) : real);
    let code: string;
    try {
      ({ code } = readCallback(await receiver.query, state));
      steps.push({ step: "consent (authorize, callback with our state)", ok: true, detail: "code received" });
    } catch (err) {
      steps.push({ step: "consent (authorize, callback with our state)", ok: false, detail: failed(err) });
      return steps;
    }
    let credential;
    try {
      const grant = await exchangeCode(input.http, "testbed", input.keys, code, receiver.redirectUri);
      credential = grant.credential;
      const days = Math.round((Date.parse(credential.expiresAt) - Date.now()) / 86_400_000);
      steps.push({ step: "token (authorization_code)", ok: true, detail: `scope "${credential.scope}", access token for ${days} days` });
    } catch (err) {
      steps.push({ step: "token (authorization_code)", ok: false, detail: failed(err) });
      return steps;
    }
    try {
      const me = await userMe(input.http, "testbed", credential);
      steps.push({ step: "user/me", ok: true, detail: `${me.accounts.length} accounts, ${me.accounts.filter((a) => a.inquiryAgreed).length} with inquiry consent` });
    } catch (err) {
      steps.push({ step: "user/me", ok: false, detail: failed(err) });
    }
    const adapter = openBankingAdapter({ environment: "testbed", ...(input.minIntervalMs === undefined ? {} : { minIntervalMs: input.minIntervalMs }) });
    const ctx = { baseUrl: "https://testapi.openbanking.or.kr/" };
    try {
      const session = await adapter.login(input.http, credential, ctx);
      const targets = await adapter.discoverTargets(session, TRANSACTIONS_SCHEMA, ctx);
      steps.push({ step: "account/list (the adapter's login)", ok: true, detail: `${targets.length} accounts to read` });
      const target = targets[0];
      if (!target) return steps;
      const bank = target.attributes.bankName ?? "?";
      const unit = (schema: string, segment: { start: string; end: string } | null) => ({ jobId: "live-check", unitIndex: 0, schema, target, segment, params: {} });
      try {
        const accounts = await adapter.collect(session, unit(ACCOUNTS_SCHEMA, null), ctx);
        steps.push({ step: `balance/fin_num, first account (${bank})`, ok: true, detail: `${accounts.length} record` });
      } catch (err) {
        steps.push({ step: `balance/fin_num, first account (${bank})`, ok: false, detail: failed(err) });
      }
      try {
        const records = await adapter.collect(session, unit(TRANSACTIONS_SCHEMA, input.month), ctx);
        steps.push({ step: `transaction_list/fin_num ${input.month.start}..${input.month.end}, first account (${bank})`, ok: true, detail: `${records.length} records` });
      } catch (err) {
        steps.push({ step: `transaction_list/fin_num ${input.month.start}..${input.month.end}, first account (${bank})`, ok: false, detail: failed(err) });
      }
    } catch (err) {
      steps.push({ step: "account/list (the adapter's login)", ok: false, detail: failed(err) });
    }
    // Last, as it may end the tokens: whether KFTC takes a refresh long before the access token's end (§8, refreshPolicy).
    const step = "token (refresh_token), 90 days before the access token's end";
    try {
      await refreshConsent(input.http, "testbed", input.keys, credential, new Date().toISOString());
      steps.push({ step, ok: true, detail: 'accepted: refreshPolicy "ahead" would work' });
    } catch (err) {
      const refused = (err as { code?: string }).code === "NO_VALID_CREDENTIAL";
      steps.push({ step, ok: refused, detail: refused ? `refused, keep refreshPolicy "after-expiry" (${failed(err)})` : failed(err) });
    }
    return steps;
  } finally {
    await receiver.close();
  }
}
