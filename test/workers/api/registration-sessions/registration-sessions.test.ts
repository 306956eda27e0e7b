import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sessionGate } from "../../../../worker/domain/api-keys/request-gate";
import { sha256Hex } from "../../../../worker/platform/lib/crypto";
import { call, callJson, createWorkspace, gateStorage, madeUpToken, onClock } from "../../../support/workers/helpers";
import { encryptForService, hostedUiHeaders } from "../../../support/workers/registration-envelope";

type Json = Record<string, any>;
const VALID = { registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }], originAllowlist: ["https://partner.example"], clientReferenceId: "user-42" };
const LOGIN = { loginId: "user_good", password: "pass_good" };

async function issue(body: unknown = VALID) {
  const ws = await createWorkspace({ businessNumber: "1208800767" });
  const res = await callJson<Json>("/api/v1/registration-sessions", { method: "POST", key: ws.apiKey, json: body });
  return { ws, res };
}

const connect = (token: string) => callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(token) });

async function submit(token: string, payload: unknown, overrides: Json = {}) {
  const session = (await connect(token)).body;
  const envelope = await encryptForService(session.encryptionKey, session.sessionId, payload);
  return callJson<Json>("/connect/api/registrations", {
    method: "POST",
    headers: hostedUiHeaders(token),
    json: { kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank", envelope, ...overrides },
  });
}

describe("POST /registration-sessions", () => {
  it("issues a one-time, high-entropy token stored only as a hash", async () => {
    const { res } = await issue();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "PENDING" });
    expect(res.body.sessionToken).toMatch(/^rst_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(25 * 60_000);
    const row = await env.DB.prepare("SELECT * FROM registration_sessions WHERE id = ?").bind(res.body.sessionId).first<Record<string, unknown>>();
    expect(JSON.stringify(row)).not.toContain(res.body.sessionToken);
    expect(row!.business_number).toBe("1208800767");
  });

  it.each([
    ["provider login without providerCode", { ...VALID, registrationOptions: [{ kind: "PROVIDER_LOGIN" }] }, "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS"],
    ["certificate with providerCode", { ...VALID, registrationOptions: [{ kind: "CERTIFICATE", providerCode: "sandbox.bank" }] }, "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS"],
    ["an unknown kind", { ...VALID, registrationOptions: [{ kind: "SMS" }] }, "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS"],
    ["no options", { ...VALID, registrationOptions: [] }, "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS"],
    ["an unknown provider", { ...VALID, registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "nope" }] }, "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS"],
    ["consent to a schema the provider does not serve", { ...VALID, registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank", schemas: ["card.cards.corp.v1"] }] }, "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS"],
    ["an origin with a path", { ...VALID, originAllowlist: ["https://partner.example/app"] }, "REGISTRATION_SESSION_INVALID_ORIGIN"],
    ["an origin with a trailing slash", { ...VALID, originAllowlist: ["https://partner.example/"] }, "REGISTRATION_SESSION_INVALID_ORIGIN"],
    ["an origin without scheme", { ...VALID, originAllowlist: ["partner.example"] }, "REGISTRATION_SESSION_INVALID_ORIGIN"],
    ["a clientReferenceId over 128 characters", { ...VALID, clientReferenceId: "x".repeat(129) }, "REGISTRATION_SESSION_INVALID_CLIENT_REFERENCE_ID"],
    ["a clientReferenceId that is not a string", { ...VALID, clientReferenceId: 42 }, "REGISTRATION_SESSION_INVALID_CLIENT_REFERENCE_ID"],
  ])("rejects %s", async (_name, body, code) => {
    const { res } = await issue(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(res.body.message).toMatch(/[가-힣]/);
  });

  it("accepts origins with ports and a clientReferenceId of 128 characters", async () => {
    const { res } = await issue({ ...VALID, originAllowlist: ["http://127.0.0.1:5173", "https://a.b.example"], clientReferenceId: "x".repeat(128) });
    expect(res.status).toBe(201);
  });
});

describe("registration through the hosted UI's API", () => {
  it("registers the credential, consumes the session and kills the token", async () => {
    const { ws, res } = await issue();
    const token = res.body.sessionToken;
    const session = await connect(token);
    expect(session.body.options[0]).toMatchObject({ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" });
    expect(session.body.options[0].fields.map((f: Json) => f.name)).toEqual(["loginId", "password", "secondFactor"]);
    const done = await submit(token, LOGIN);
    expect(done.status).toBe(201);
    const polled = await callJson<Json>(`/api/v1/registration-sessions/${res.body.sessionId}`, { key: ws.apiKey });
    expect(polled.body).toMatchObject({ status: "CONSUMED", clientReferenceId: "user-42" });
    const credential = await callJson<Json>(`/api/v1/credentials/${polled.body.credentialId}`, { key: ws.apiKey });
    expect(credential.body).toMatchObject({ providerCode: "sandbox.bank", status: "ACTIVE" });
    for (const again of [await connect(token), await submit(token, LOGIN).catch(() => null)]) {
      if (again) expect(again.status).toBe(410);
    }
    expect((await connect(token)).body.code).toBe("REGISTRATION_SESSION_ALREADY_CONSUMED");
  });

  it("shows the end-user the schemas the session asks consent for, and the credential collects only those", async () => {
    const consent = [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank", schemas: ["bank.transactions.cb.v1", "bank.transactions.cb.v1"] }];
    const { ws, res } = await issue({ ...VALID, registrationOptions: consent });
    const polled = async () => (await callJson<Json>(`/api/v1/registration-sessions/${res.body.sessionId}`, { key: ws.apiKey })).body;
    expect((await polled()).registrationOptions).toEqual([{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank", schemas: ["bank.transactions.cb.v1"] }]);
    expect((await connect(res.body.sessionToken)).body.options[0].schemas).toEqual([{ id: "bank.transactions.cb.v1", title: "은행 거래내역" }]);
    expect((await submit(res.body.sessionToken, LOGIN)).status).toBe(201);
    const credential = await callJson<Json>(`/api/v1/credentials/${(await polled()).credentialId}`, { key: ws.apiKey });
    expect(credential.body.schemas).toEqual(["bank.transactions.cb.v1"]);
    const accounts = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params: {} } });
    expect([accounts.status, accounts.body.code]).toEqual([422, "CREDENTIAL_SCOPE_NOT_SUPPORTED"]);
  });

  it("offers a certificate only at the providers serving a schema its session asks consent for", async () => {
    const { res } = await issue({ ...VALID, registrationOptions: [{ kind: "CERTIFICATE", schemas: ["card.approvals.corp.v1"] }] });
    const offered = (await connect(res.body.sessionToken)).body.options;
    // The card issuer, and the tax portals, which read every issuer's business-card purchases (issue 62); no bank.
    const byProvider = offered.map((o: Json) => [o.providerCode, o.schemas.map((s: Json) => s.id)]).sort((a: string[], b: string[]) => a[0]!.localeCompare(b[0]!));
    expect(byProvider).toEqual([["hometax", ["card.approvals.corp.v1"]], ["sandbox.card", ["card.approvals.corp.v1"]], ["sandbox.taxportal", ["card.approvals.corp.v1"]]]);
  });

  it("answers unknown tokens 401 and cancelled or expired sessions 410", async () => {
    expect((await connect("rst_nope")).body.code).toBe("REGISTRATION_SESSION_TOKEN_INVALID");
    expect((await callJson<Json>("/connect/api/session")).status).toBe(401);
    const cancelled = await issue();
    const cancel = await callJson<Json>(`/api/v1/registration-sessions/${cancelled.res.body.sessionId}/cancel`, { method: "POST", key: cancelled.ws.apiKey });
    expect(cancel.body.status).toBe("CANCELLED");
    expect((await connect(cancelled.res.body.sessionToken)).body.code).toBe("REGISTRATION_SESSION_ALREADY_CANCELLED");
    const again = await callJson<Json>(`/api/v1/registration-sessions/${cancelled.res.body.sessionId}/cancel`, { method: "POST", key: cancelled.ws.apiKey });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe("REGISTRATION_SESSION_ALREADY_CANCELLED");
    const expired = await issue();
    await env.DB.prepare("UPDATE registration_sessions SET expires_at = ? WHERE id = ?").bind(Date.now() - 1, expired.res.body.sessionId).run();
    expect((await connect(expired.res.body.sessionToken)).body.code).toBe("REGISTRATION_SESSION_EXPIRED");
    const view = await callJson<Json>(`/api/v1/registration-sessions/${expired.res.body.sessionId}`, { key: expired.ws.apiKey });
    expect(view.body.status).toBe("EXPIRED");
  });

  it("rejects input outside the options or business number fixed at issue with 403", async () => {
    const { ws, res } = await issue();
    const otherProvider = await submit(res.body.sessionToken, LOGIN, { providerCode: "sandbox.card" });
    expect(otherProvider.status).toBe(403);
    expect(otherProvider.body.code).toBe("REGISTRATION_SESSION_OPTION_NOT_ALLOWED");
    await env.DB.prepare("UPDATE workspaces SET business_number = '2208162517' WHERE id = ?").bind(ws.workspaceId).run();
    const moved = await submit(res.body.sessionToken, LOGIN);
    expect(moved.status).toBe(403);
    expect(moved.body.code).toBe("REGISTRATION_SESSION_BUSINESS_MISMATCH");
  });

  it("rejects unknown key ids, bad ciphertext and bad fields, and locks the session after five failures", async () => {
    const { res } = await issue();
    const token = res.body.sessionToken;
    const session = (await connect(token)).body;
    const good = await encryptForService(session.encryptionKey, session.sessionId, LOGIN);
    const post = (envelope: Json) => callJson<Json>("/connect/api/registrations", { method: "POST", headers: hostedUiHeaders(token), json: { kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank", envelope } });
    expect((await post({ ...good, kid: "old" })).body.code).toBe("REGISTRATION_E2E_UNKNOWN_KEY_ID");
    expect((await post({ ...good, ct: good.ct.replace(/^./, (ch) => (ch === "A" ? "B" : "A")) })).body.code).toBe("REGISTRATION_E2E_DECRYPT_FAILED");
    const wrongSession = await encryptForService(session.encryptionKey, crypto.randomUUID(), LOGIN);
    expect((await post(wrongSession)).body.code).toBe("REGISTRATION_E2E_DECRYPT_FAILED");
    const missing = await submit(token, { loginId: "user_good" });
    expect(missing.body.code).toBe("MISSING_CREDENTIAL_FIELD");
    expect(JSON.stringify(missing.body)).not.toContain("user_good");
    const format = await submit(token, { loginId: "user good", password: "pass_good" });
    expect(format.body.code).toBe("INVALID_CREDENTIAL_FORMAT");
    expect((await connect(token)).body.code).toBe("REGISTRATION_SESSION_MAX_ATTEMPTS_EXCEEDED");
  });

  it("lets an end-user register again: the new credential supersedes the provider's old one, without a failed attempt", async () => {
    const { ws, res } = await issue();
    const old = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: LOGIN } });
    const again = await submit(res.body.sessionToken, LOGIN);
    expect(again.status).toBeLessThan(300);
    const session = (await callJson<Json>(`/api/v1/registration-sessions/${res.body.sessionId}`, { key: ws.apiKey })).body;
    expect(session).toMatchObject({ attempts: 0 });
    expect(session.credentialId).not.toBe(old.body.id);
    expect((await callJson<Json>(`/api/v1/credentials/${session.credentialId}`, { key: ws.apiKey })).body).toMatchObject({ status: "ACTIVE" });
    expect((await callJson<Json>(`/api/v1/credentials/${old.body.id}`, { key: ws.apiKey })).body.code).toBe("CREDENTIAL_SUPERSEDED");
  });

  it("hides sessions of other workspaces and publishes the encryption key", async () => {
    const { res } = await issue();
    const other = await createWorkspace();
    expect((await callJson<Json>(`/api/v1/registration-sessions/${res.body.sessionId}`, { key: other.apiKey })).body.code).toBe("REGISTRATION_SESSION_NOT_FOUND");
    const keys = await callJson<Json>("/connect/api/keys");
    expect(keys.body.keys[0]).toMatchObject({ kid: "test-key", jwk: { kty: "EC", crv: "P-256" } });
    expect(keys.body.keys[0].jwk.d).toBeUndefined();
    const page = await call("/connect");
    expect(page.headers.get("Content-Security-Policy")).toContain("connect-src 'self'");
    expect(await page.text()).toContain('lang="ko"');
  });
});

describe("the hosted UI's origin check", () => {
  const connectFrom = (token: string, headers: Record<string, string> = {}) => callJson<Json>("/connect/api/session", { headers: { ...hostedUiHeaders(token), ...headers } });

  it("hands the page the session's own allowlist, whatever origins a request claims", async () => {
    const { res } = await issue();
    const token = res.body.sessionToken;
    const claims: Record<string, string>[] = [{}, { "X-SVC-Page-Origins": "https://evil.example" }, { "X-SVC-Page-Origins": "https://partner.example" }, { Origin: "https://evil.example" }];
    for (const claimed of claims) {
      const answer = await connectFrom(token, claimed);
      expect(answer.status, JSON.stringify(claimed)).toBe(200);
      // The page shows its form only where the browser reports allowlisted origins (test/e2e/registration.test.ts).
      expect(answer.body.originAllowlist).toEqual(["https://partner.example"]);
    }
  });

  it("checks the token, then the session's status", async () => {
    expect((await connectFrom("rst_nope")).body.code).toBe("REGISTRATION_SESSION_TOKEN_INVALID");
    const { ws, res } = await issue();
    await callJson(`/api/v1/registration-sessions/${res.body.sessionId}/cancel`, { method: "POST", key: ws.apiKey });
    expect((await connectFrom(res.body.sessionToken)).body.code).toBe("REGISTRATION_SESSION_ALREADY_CANCELLED");
  });

  it("serves the page to any framing origin, leaving the origin check to the handshake, with nothing third-party", async () => {
    const page = await call("/connect");
    const csp = (page.headers.get("Content-Security-Policy") ?? "").split(";").map((directive) => directive.trim());
    expect(csp).toEqual(expect.arrayContaining(["frame-ancestors *", "default-src 'none'", "connect-src 'self'", "form-action 'none'"]));
    expect(page.headers.get("X-Frame-Options")).toBeNull();
  });
});

describe("rate limiting the hosted UI's API", () => {
  const from = (address: string, token: string) => callJson<Json>("/connect/api/session", { headers: { ...hostedUiHeaders(token), "CF-Connecting-IP": address } });

  function expectLimited(refused: { status: number; body: Json; headers: Headers }[]) {
    for (const r of refused) {
      expect(r.body.code).toBe("API_RATE_LIMITED");
      expect(r.body.message).toMatch(/[가-힣]/);
      expect(r.body.requestId).toBe(r.headers.get("X-Request-Id"));
      expect(Number(r.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      expect(r.headers.get("X-RateLimit-Remaining")).toBe("0");
    }
  }

  it("admits 100 calls a minute per session, however many addresses make them", async () => {
    const token = (await issue()).res.body.sessionToken;
    await onClock(0, async () => {
      const answers = await Promise.all(Array.from({ length: 105 }, (_, i) => from(`198.18.0.${i}`, token)));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(100);
      const refused = answers.filter((r) => r.status === 429);
      expect(refused).toHaveLength(5);
      expectLimited(refused);
    });
  });

  it("admits 100 calls a minute per address, whatever tokens it makes up, and keeps nothing for made-up tokens", async () => {
    const address = "198.18.1.1";
    const token = (await issue()).res.body.sessionToken;
    // The burst, the storage check and the last two calls all in one minute's window, on a stopped clock.
    await onClock(0, async () => {
      const tokens = Array.from({ length: 105 }, () => madeUpToken("rst_"));
      const answers = await Promise.all(tokens.map((token) => from(address, token)));
      expect(answers.filter((r) => r.status === 401 && r.body.code === "REGISTRATION_SESSION_TOKEN_INVALID")).toHaveLength(100);
      const refused = answers.filter((r) => r.status === 429);
      expect(refused).toHaveLength(5);
      expectLimited(refused);
      expect((await gateStorage(sessionGate(env, await sha256Hex(tokens[0]!)))).tables).toEqual([]);
      // A real session is limited at that address too, and served from another.
      expect((await from(address, token)).status).toBe(429);
      expect((await from("198.18.1.2", token)).status).toBe(200);
    });
  });
});
