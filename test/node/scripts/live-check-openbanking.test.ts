import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENBANKING_HOSTS } from "../../../collectors/openbanking/hosts";
import { institutionHttp } from "../../../collectors/kit/protocol/institution-http";
import { REPLICA_CLIENT, transactionsBetween, userByLogin } from "../../../sandbox/openbanking/ground-truth";
import { openBankingStandIns } from "../../../sandbox/openbanking/stand-ins";
import { walkReplicaConsent } from "../../../sandbox/openbanking/walk-consent";
import { type SandboxServer, startSandbox } from "../../../sandbox/server";
import { atStandIn, checkOpenBanking } from "../../../scripts/live-check/openbanking";
import { freePort } from "../../../scripts/free-port";

/**
 * The steps of `npm run live:check -- --provider openbanking` (scripts/live-check/openbanking.ts) against the sandbox's
 * replica of KFTC's testbed, with the replica's 이용기관 keys: the person's browser is plain HTTP on the replica's
 * consent page, then on the check's own callback server.
 */
let replica: SandboxServer;
// The same, refusing a refresh before the access token's end (whether KFTC does is what the check reports).
let strict: SandboxServer;
// The check's callback server listens here, the Callback URL registered for the replica's 이용기관 as the developer's is at KFTC.
let port: number;
beforeAll(async () => {
  port = await freePort();
  replica = await startSandbox({ port: 0, openbanking: { callbackUrls: [`http://localhost:${port}/callback`] } });
  strict = await startSandbox({ port: 0, openbanking: { callbackUrls: [`http://localhost:${port}/callback`], earlyRefresh: "refuse" } });
});
afterAll(async () => {
  await replica?.close();
  await strict?.close();
});

const MONTH = { start: "2026-03-01", end: "2026-03-31" };

/** The check as a developer runs it, with the replica standing in for the testbed and `person` at the browser. */
function check(person: (authorizationUrl: string) => Promise<void>, sandbox = replica) {
  const standIns = openBankingStandIns(sandbox.url);
  const shown: string[] = [];
  const steps = checkOpenBanking({
    http: institutionHttp({ hosts: OPENBANKING_HOSTS, standIns }),
    keys: REPLICA_CLIENT,
    port,
    month: MONTH,
    minIntervalMs: 0,
    timeoutMs: 20_000,
    browserUrl: (real) => atStandIn(real, standIns),
    showAuthorizationUrl: async (url) => {
      shown.push(url);
      await person(url);
    },
  });
  return { steps, shown };
}

/** Follows the replica's redirect to the check's callback server, as the browser would (localhost, by IPv4). */
async function backToCallback(callback: URL): Promise<string> {
  expect(callback.origin).toMatch(/^http:\/\/localhost:\d+$/);
  expect(callback.pathname).toBe("/callback");
  callback.hostname = "127.0.0.1";
  return (await fetch(callback)).text();
}

describe("the Open Banking live check's steps, against the replica", () => {
  it("prints the testbed's authorization URL, takes the callback on localhost, exchanges the code and counts accounts and a month", async () => {
    const user = userByLogin("obuser1")!;
    let page = "";
    const { steps, shown } = check(async (url) => {
      page = await backToCallback(await walkReplicaConsent(url, user.loginId));
    });
    const result = await steps;
    expect(shown).toHaveLength(1);
    const url = new URL(shown[0]!);
    // The testbed's host, at the replica's stand-in: the developer's keys name a testbed app.
    expect(url.pathname).toBe("/openbanking/testapi.openbanking.or.kr/oauth/2.0/authorize");
    expect(url.searchParams.get("client_id")).toBe(REPLICA_CLIENT.clientId);
    expect(url.searchParams.get("redirect_uri")).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    expect(page).toContain("터미널");
    const first = user.accounts[0]!;
    expect(result).toEqual([
      { step: "consent (authorize, callback with our state)", ok: true, detail: "code received" },
      { step: "token (authorization_code)", ok: true, detail: expect.stringMatching(/^scope "login inquiry", access token for 90 days$/) },
      { step: "user/me", ok: true, detail: `${user.accounts.length} accounts, ${user.accounts.length} with inquiry consent` },
      { step: "account/list (the adapter's login)", ok: true, detail: `${user.accounts.length} accounts to read` },
      { step: `balance/fin_num, first account (${first.bankName})`, ok: true, detail: "1 record" },
      { step: `transaction_list/fin_num ${MONTH.start}..${MONTH.end}, first account (${first.bankName})`, ok: true, detail: `${transactionsBetween(first.fintechUseNum, MONTH.start, MONTH.end).length} records` },
      { step: "token (refresh_token), 90 days before the access token's end", ok: true, detail: 'accepted: refreshPolicy "ahead" would work' },
    ]);
    // Counts only: no account number, token or record in what it prints.
    expect(JSON.stringify(result)).not.toContain(first.fintechUseNum);
    expect(JSON.stringify(result)).not.toContain(first.accountNumMasked);
  });

  it("reports a testbed that refuses a refresh before the access token's end, as the refresh policy's answer", async () => {
    const { steps } = check(async (url) => {
      await backToCallback(await walkReplicaConsent(url, "obuser2"));
    }, strict);
    const result = await steps;
    expect(result.at(-1)).toEqual({ step: "token (refresh_token), 90 days before the access token's end", ok: true, detail: expect.stringMatching(/^refused, keep refreshPolicy "after-expiry" \(NO_VALID_CREDENTIAL: /) });
    expect(result.every((s) => s.ok)).toBe(true);
  });

  it("stops at the consent when the person refuses it, and frees its port", async () => {
    const { steps } = check(async (url) => {
      await backToCallback(await walkReplicaConsent(url, "obuser2", { action: "cancel" }));
    });
    expect(await steps).toEqual([{ step: "consent (authorize, callback with our state)", ok: false, detail: expect.stringMatching(/^LOGIN_FAILED: /) }]);
  });
});
