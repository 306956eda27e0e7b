import { AsyncLocalStorage } from "node:async_hooks";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { alertCode, ConsoleBrowser } from "../../support/workers/console-browser";
import { call, callJson, createWorkspace } from "../../support/workers/helpers";
import { act, auditOf, freshCode, newOperator, signedIn } from "../../support/workers/operator-helpers";
import { OPERATOR_LOCK_AFTER } from "../../../worker/domain/operators/sign-in";
import { findOperatorSession, OPERATOR_SESSION_IDLE_MS, OPERATOR_SESSION_TTL_MS, openOperatorSession } from "../../../worker/domain/operators/store";
import { LOGIN_WINDOW_MS } from "../../../worker/domain/console-sessions/login-attempts";

type Json = Record<string, any>;

describe("operators sign in with a second factor", () => {
  it("open a session with password and the authenticator's current code, a code only once, and learn nothing from a refusal", async () => {
    const operator = await newOperator("viewer");
    const code = operator.app.generate();
    const first = await callJson<Json>("/admin/api/sessions", { method: "POST", json: { email: operator.email.toUpperCase(), password: operator.password, code } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ token: expect.stringMatching(/^ops_/), operator: { id: operator.id, email: operator.email, role: "viewer" } });

    const replayed = await callJson<Json>("/admin/api/sessions", { method: "POST", json: { email: operator.email, password: operator.password, code } });
    const wrongCode = await callJson<Json>("/admin/api/sessions", { method: "POST", json: { email: operator.email, password: operator.password, code: code === "000000" ? "111111" : "000000" } });
    const wrongPassword = await callJson<Json>("/admin/api/sessions", { method: "POST", json: { email: operator.email, password: "not it", code: operator.app.generate() } });
    for (const refused of [replayed, wrongCode, wrongPassword]) {
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: "INVALID_CREDENTIALS", message: "이메일, 비밀번호 또는 인증 코드가 올바르지 않습니다." });
    }

    expect((await act(first.body.token, "/search?q=nothing")).status).toBe(200);
    expect((await call("/admin/api/sessions/current", { method: "DELETE", key: first.body.token })).status).toBe(204);
    expect((await act(first.body.token, "/search?q=nothing")).body.code).toBe("ADMIN_FORBIDDEN");
  });

  it("refuse everyone else ADMIN_FORBIDDEN, API keys and made-up tokens included, and keep the operators' API out of the partners' document", async () => {
    const ws = await createWorkspace();
    for (const key of [undefined, ws.apiKey, `ops_${crypto.randomUUID().replaceAll("-", "")}`]) {
      for (const path of ["/admin/api/search?q=x", "/admin/api/openapi.json"]) {
        const refused = await callJson<Json>(path, { key });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ code: "ADMIN_FORBIDDEN", message: "관리자 권한이 필요합니다.", requestId: expect.any(String) });
      }
    }
    const operator = await signedIn("viewer");
    const document = (await callJson<Json>("/admin/api/openapi.json", { key: operator.token })).body;
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/sessions", "/workspaces/{id}/suspend", "/audit"]));
    const partners = (await callJson<Json>("/api/v1/openapi.json")).body;
    expect(JSON.stringify(Object.keys(partners.paths))).not.toContain("admin");
  });
});

describe("operators' sign-in against guessing", () => {
  /** With `inIsolate`, the worker's app answers in the caller's own async context rather than as a request of its own. */
  const signIn = (json: { email: string; password: string; code: string }, address: string, inIsolate?: typeof env) =>
    callJson<Json>("/admin/api/sessions", { method: "POST", json, headers: { "CF-Connecting-IP": address }, env: inIsolate });
  const byte = () => Math.floor(Math.random() * 250) + 1;
  const hex = () => Math.floor(Math.random() * 0xffff).toString(16);

  it("counts an IPv6 client by its /64: other addresses of the same /64 wait as the guessing one does, another /64 does not", async () => {
    const operator = await newOperator("viewer");
    const net = `2001:db8:${hex()}:${hex()}`;
    for (const host of ["::1", "::2", ":0:0:0:3"]) expect((await signIn({ email: operator.email, password: "wrong", code: "000000" }, `${net}${host}`)).status).toBe(401);
    const sameNet = await signIn({ email: operator.email, password: operator.password, code: operator.app.generate() }, `${net}:ffff:1:2:99`);
    expect(sameNet.status).toBe(429);
    expect(sameNet.body.code).toBe("TOO_MANY_LOGIN_ATTEMPTS");
    const otherNet = await signIn({ email: operator.email, password: operator.password, code: operator.app.generate() }, `2001:db8:${hex()}:${hex()}::1`);
    expect(otherNet.status).toBe(201);
  });

  it(`locks the account after ${OPERATOR_LOCK_AFTER} failures from any addresses, even to the right password and code, raises an operators' alert, and opens again once the window has passed`, async () => {
    const operator = await newOperator("support");
    for (let i = 0; i < OPERATOR_LOCK_AFTER; i++) {
      const failed = await signIn({ email: operator.email, password: `guess ${i}`, code: "123456" }, `10.${byte()}.${byte()}.${byte()}`);
      expect(failed.status, String(i)).toBe(401);
    }
    const locked = await signIn({ email: operator.email, password: operator.password, code: operator.app.generate() }, `10.${byte()}.${byte()}.${byte()}`);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: "TOO_MANY_LOGIN_ATTEMPTS", message: expect.stringContaining("운영자 계정을 잠갔습니다"), requestId: expect.any(String) });
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(locked.headers.get("Retry-After"))).toBeLessThanOrEqual(LOGIN_WINDOW_MS / 1000);
    const alert = await env.DB.prepare("SELECT example FROM operator_alerts WHERE code = 'TOO_MANY_LOGIN_ATTEMPTS' AND resolved_at IS NULL").all<{ example: string }>();
    expect(alert.results.map((a) => a.example).join("\n")).toContain(operator.email);
    // An unknown address is locked the same way, so the answer tells nothing of which accounts exist.
    const nobody = `nobody-${crypto.randomUUID().slice(0, 8)}@collect-edge.co.kr`;
    for (let i = 0; i <= OPERATOR_LOCK_AFTER; i++) await signIn({ email: nobody, password: "x", code: "123456" }, `10.${byte()}.${byte()}.${byte()}`);
    expect((await signIn({ email: nobody, password: "x", code: "123456" }, `10.${byte()}.${byte()}.${byte()}`)).body.code).toBe("TOO_MANY_LOGIN_ATTEMPTS");

    await env.DB.prepare("UPDATE login_attempts SET window_started_at = window_started_at - ?, last_attempt_at = last_attempt_at - ? WHERE subject LIKE ?")
      .bind(LOGIN_WINDOW_MS, LOGIN_WINDOW_MS, `%operator:${operator.email}%`)
      .run();
    expect((await signIn({ email: operator.email, password: operator.password, code: operator.app.generate() }, `10.${byte()}.${byte()}.${byte()}`)).status).toBe(201);
  });

  it("checks the code whether or not the password matched: the same crypto work for a wrong password, a wrong code and an unknown account", async () => {
    /**
     * Counts the Web Crypto calls a request makes, HMAC signatures by their hash. Only the request's own: work the
     * isolate does meanwhile for earlier tests (an alert desk's notice, signed and mailed) runs outside `measured`.
     */
    const measured = new AsyncLocalStorage<true>();
    async function cryptoWork(request: () => Promise<{ status: number }>): Promise<Record<string, number>> {
      const counts: Record<string, number> = {};
      const methods = ["importKey", "sign", "deriveBits", "encrypt", "decrypt", "unwrapKey", "digest"] as const;
      const spies = methods.map((method) => {
        const original = (crypto.subtle[method] as (...args: unknown[]) => unknown).bind(crypto.subtle);
        return vi.spyOn(crypto.subtle, method).mockImplementation(((...args: any[]) => {
          const name = method === "sign" ? `sign:${args[1]?.algorithm?.hash?.name}` : method;
          if (measured.getStore()) counts[name] = (counts[name] ?? 0) + 1;
          return original(...args);
        }) as any);
      });
      try {
        expect((await measured.run(true, request)).status).toBe(401);
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
      return counts;
    }
    const operator = await newOperator("viewer");
    const from = () => `10.${byte()}.${byte()}.${byte()}`;
    const unknown = () => signIn({ email: `nobody-${crypto.randomUUID().slice(0, 8)}@collect-edge.co.kr`, password: "guess", code: "123456" }, from(), env);
    await cryptoWork(unknown);
    const rightCode = operator.app.generate();
    const wrongPassword = await cryptoWork(() => signIn({ email: operator.email, password: "guess", code: rightCode }, from(), env));
    const wrongCode = await cryptoWork(() => signIn({ email: operator.email, password: operator.password, code: rightCode === "123456" ? "654321" : "123456" }, from(), env));
    const noAccount = await cryptoWork(unknown);
    expect(wrongPassword["sign:SHA-1"]).toBe(3);
    expect(wrongPassword.deriveBits).toBe(1);
    expect(wrongCode).toEqual(wrongPassword);
    expect(noAccount).toEqual(wrongPassword);
    // Checked against a dummy secret, the right code with a wrong password was not spent.
    expect((await signIn({ email: operator.email, password: operator.password, code: rightCode }, from())).status).toBe(201);
  });
});

describe("operator sessions", () => {
  it("end after 30 idle minutes, and a session in use lasts no longer than its 8 hours", async () => {
    const operator = await newOperator("viewer");
    const t0 = Date.now();
    const minute = 60_000;
    const { token } = await openOperatorSession(env.DB, operator.id, t0);
    expect(await findOperatorSession(env.DB, token, t0 + 29 * minute)).not.toBeNull();
    expect(await findOperatorSession(env.DB, token, t0 + 58 * minute)).not.toBeNull();
    expect(await findOperatorSession(env.DB, token, t0 + 58 * minute + OPERATOR_SESSION_IDLE_MS + 1000)).toBeNull();

    const busy = await openOperatorSession(env.DB, operator.id, t0);
    for (let at = t0 + 20 * minute; at < t0 + OPERATOR_SESSION_TTL_MS; at += 20 * minute) expect(await findOperatorSession(env.DB, busy.token, at), String(at - t0)).not.toBeNull();
    expect(await findOperatorSession(env.DB, busy.token, t0 + OPERATOR_SESSION_TTL_MS + 1000)).toBeNull();
  });

  it("tell the signed-in operator the idle expiry, 30 minutes ahead", async () => {
    const operator = await newOperator("viewer");
    const before = Date.now();
    const session = await callJson<Json>("/admin/api/sessions", { method: "POST", json: { email: operator.email, password: operator.password, code: operator.app.generate() } });
    expect(Date.parse(session.body.expiresAt) - before).toBeLessThanOrEqual(OPERATOR_SESSION_IDLE_MS + 5000);
    expect(Date.parse(session.body.expiresAt) - before).toBeGreaterThan(OPERATOR_SESSION_IDLE_MS - 60_000);
  });
});

describe("money moved by an operator", () => {
  it("needs a fresh authenticator code for a credit and a refund, through the API and the page: none, a wrong one or the sign-in's own code changes nothing", async () => {
    const admin = await signedIn("admin");
    const ws = await createWorkspace();
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const credit = (code?: string) => act(admin.token, `/workspaces/${ws.workspaceId}/credits`, { amount: 1000, expiresAt, reason: "장애 보상 시험", ...(code === undefined ? {} : { code }) });
    const granted = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM usage_credits WHERE workspace_id = ?").bind(ws.workspaceId).first<{ n: number }>())!.n;

    expect((await credit()).status).toBe(400);
    const { signInCode } = admin;
    for (const code of [signInCode === "000000" ? "111111" : "000000", signInCode, "12ab56"]) {
      const refused = await credit(code);
      expect(refused.status, code).toBe(401);
      expect(refused.body).toMatchObject({ code: "INVALID_CREDENTIALS", message: expect.stringContaining("새 6자리 코드"), requestId: expect.any(String) });
    }
    const refund = await act(admin.token, `/invoices/${crypto.randomUUID()}/refund`, { reason: "환불 시험", code: signInCode });
    expect(refund.body.code).toBe("INVALID_CREDENTIALS");
    expect(await granted()).toBe(0);
    expect((await auditOf(admin.token, ws.workspaceId)).filter((line) => line.action === "workspace.credit")).toEqual([]);

    const code = await freshCode(admin);
    expect((await credit(code)).status).toBe(201);
    // Good once.
    expect((await credit(code)).body.code).toBe("INVALID_CREDENTIALS");
    expect(await granted()).toBe(1);
    expect((await act(admin.token, `/invoices/${crypto.randomUUID()}/refund`, { reason: "없는 청구서", code: await freshCode(admin) })).body.code).toBe("INVOICE_NOT_FOUND");

    const browser = new ConsoleBrowser();
    const pageOperator = await newOperator("admin");
    await browser.open("/admin/sign-in");
    const pageSignInCode = pageOperator.app.generate();
    await browser.post("/admin/sign-in", { email: pageOperator.email, password: pageOperator.password, code: pageSignInCode });
    const page = `/admin/workspaces/${ws.workspaceId}`;
    expect((await browser.open(page)).html).toContain('name="code"');
    const until = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const refusedPage = await browser.post(`${page}/credits`, { amount: "2000", expiresOn: until, reason: "페이지 시험", code: pageSignInCode });
    expect(refusedPage.status).toBe(401);
    expect(alertCode(refusedPage.html)).toBe("INVALID_CREDENTIALS");
    expect(await granted()).toBe(1);
    await browser.open(page);
    const grantedPage = await browser.post(`${page}/credits`, { amount: "2000", expiresOn: until, reason: "페이지 시험", code: await freshCode(pageOperator) });
    expect(grantedPage.location).toBe(page);
    expect(await granted()).toBe(2);
  });
});
