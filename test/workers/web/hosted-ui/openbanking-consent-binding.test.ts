import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CURRENT_CONSENT_TEXT_VERSION } from "../../../../worker/domain/credentials/consent-text";
import { scraperClient } from "../../../../worker/domain/scraper/binding";
import { call, callJson, createWorkspace, type TestWorkspace } from "../../../support/workers/helpers";
import { hostedUiHeaders } from "../../../support/workers/registration-envelope";
import { completeOpenBanking, consentAtReplica } from "../../../support/workers/consent-helpers";

type Json = Record<string, any>;
const OPTION = { kind: "PROVIDER_LOGIN", providerCode: "openbanking" };
const REDIRECT = "https://api.test/connect/open-banking/callback";

async function issue(ws: TestWorkspace) {
  const res = await callJson<Json>("/api/v1/registration-sessions", { method: "POST", key: ws.apiKey, json: { registrationOptions: [OPTION], originAllowlist: ["https://partner.example"] } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { sessionId: string; sessionToken: string };
}

const sessionOf = async (ws: TestWorkspace, id: string) => (await callJson<Json>(`/api/v1/registration-sessions/${id}`, { key: ws.apiKey })).body;
const credentialCount = async (ws: TestWorkspace) => (await env.DB.prepare("SELECT count(*) AS n FROM credentials WHERE workspace_id = ?").bind(ws.workspaceId).first<{ n: number }>())!.n;

/** Whether KFTC (the replica) still takes the callback's code: true means nothing of ours exchanged it. */
async function codeStillUnused(callback: URL): Promise<boolean> {
  const code = callback.searchParams.get("code")!;
  return scraperClient(env)!.openBankingToken({ grant: "authorization_code", code, redirectUri: REDIRECT }).then(
    () => true,
    () => false,
  );
}

describe("an Open Banking consent is finished only by the hosted page that started it (RFC 6749 §10.12)", () => {
  it("completes nothing where the callback reaches a browser that never opened the hosted page: no credential, no consent record, the code unused", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const session = await issue(ws);
    // The token holder sends the authorization URL to someone else, who consents in a browser of their own.
    const { callback } = await consentAtReplica(session.sessionToken, "obuser1");
    const page = await call(`${callback.pathname}${callback.search}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("등록 화면에서 열린 창이 아니어서 동의를 마칠 수 없습니다");
    expect(html).not.toContain("동의가 끝났습니다");
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(await sessionOf(ws, session.sessionId)).toMatchObject({ status: "PENDING", credentialId: null, attempts: 0 });
    expect(await credentialCount(ws)).toBe(0);
    expect(await codeStillUnused(callback)).toBe(true);
  });

  it("checks the session before exchanging the code: a cancelled or expired session answers its error and leaves the code unused at KFTC", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    for (const [end, code] of [
      [(id: string) => call(`/api/v1/registration-sessions/${id}/cancel`, { method: "POST", key: ws.apiKey }), "REGISTRATION_SESSION_ALREADY_CANCELLED"],
      [(id: string) => env.DB.prepare("UPDATE registration_sessions SET expires_at = ? WHERE id = ?").bind(Date.now() - 1000, id).run(), "REGISTRATION_SESSION_EXPIRED"],
    ] as const) {
      const session = await issue(ws);
      const { callback } = await consentAtReplica(session.sessionToken, "obuser2");
      await end(session.sessionId);
      const completed = await completeOpenBanking(session.sessionToken, callback);
      expect(completed.status, JSON.stringify(completed.body)).toBe(410);
      expect(completed.body.code).toBe(code);
      expect(await codeStillUnused(callback)).toBe(true);
    }
    expect(await credentialCount(ws)).toBe(0);
  });

  it("completes only the state bound to the token's own session", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const [mine, theirs] = [await issue(ws), await issue(ws)];
    const { callback } = await consentAtReplica(theirs.sessionToken, "obuser2");
    const crossed = await completeOpenBanking(mine.sessionToken, callback);
    expect(crossed.body).toMatchObject({ state: "FAILED", code: "LOGIN_FAILED" });
    expect(await sessionOf(ws, theirs.sessionId)).toMatchObject({ status: "PENDING", credentialId: null });
    // The state is still the other session's, for its own page.
    expect((await completeOpenBanking(theirs.sessionToken, callback)).body).toMatchObject({ state: "CONNECTED" });
  });

  it("records the consent text the hosted page named, and refuses a completion that names none or an unknown one", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const session = await issue(ws);
    const { callback } = await consentAtReplica(session.sessionToken, "obuser1");
    const complete = (json: Json) => callJson<Json>("/connect/api/open-banking/completions", { method: "POST", headers: hostedUiHeaders(session.sessionToken), json });
    for (const json of [{ callbackQuery: callback.search }, { callbackQuery: callback.search, consentTextVersion: "1999-01" }, { callbackQuery: "x".repeat(5000), consentTextVersion: CURRENT_CONSENT_TEXT_VERSION }]) {
      const refused = await complete(json);
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(refused.body).toMatchObject({ code: expect.stringMatching(/^(MISSING_REQUIRED_PARAM|INVALID_PARAM_FORMAT)$/), message: expect.stringMatching(/[가-힣]/) });
    }
    expect((await complete({ callbackQuery: callback.search, consentTextVersion: CURRENT_CONSENT_TEXT_VERSION })).body).toMatchObject({ state: "CONNECTED" });
    const { credentialId } = await sessionOf(ws, session.sessionId);
    const credential = (await callJson<Json>(`/api/v1/credentials/${credentialId}`, { key: ws.apiKey })).body;
    expect(credential.consentRecord).toMatchObject({ textVersion: CURRENT_CONSENT_TEXT_VERSION });
  });
});
