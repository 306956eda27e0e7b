import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ATTEMPTS_PER_ADDRESS, FREE_GUESSES, guessWaitMs, SIGN_UPS_PER_ADDRESS, UNLOCK_MAIL_AFTER } from "../../../worker/domain/console-sessions/login-attempts";
import { findSession, openSession, SESSION_IDLE_MS, SESSION_TTL_MS } from "../../../worker/domain/console-sessions/store";
import { sha256Hex } from "../../../worker/platform/lib/crypto";
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from "../../../worker/domain/users/password";
import { callJson } from "../../support/workers/helpers";
import { limitedAddress } from "../../../worker/platform/http/client-address";
import { alertCode, ConsoleBrowser } from "../../support/workers/console-browser";
import { changeSuspension } from "../../../worker/domain/api-keys/suspension";

type Json = Record<string, any>;

describe("password hashing", () => {
  it("stores PBKDF2-SHA256 with its iteration count and a fresh salt, and verifies only the right password", async () => {
    const first = await hashPassword("correct horse battery");
    const second = await hashPassword("correct horse battery");
    expect(first).toMatch(new RegExp(`^pbkdf2-sha256\\$${PBKDF2_ITERATIONS}\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`));
    expect(first).not.toBe(second);
    expect(await verifyPassword("correct horse battery", first)).toBe(true);
    expect(await verifyPassword("correct horse batterY", first)).toBe(false);
    expect(await verifyPassword("correct horse battery", "garbage")).toBe(false);
  });

  it("verifies a hash made with other parameters by the parameters stored with it", async () => {
    const [, , salt] = (await hashPassword("x")).split("$");
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("old password"), "PBKDF2", false, ["deriveBits"]);
    const saltBytes = Uint8Array.from(atob(salt!.replace(/-/g, "+").replace(/_/g, "/")), (ch) => ch.charCodeAt(0));
    const bits = new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: saltBytes, iterations: 1000 }, key, 256));
    const hash = btoa(String.fromCharCode(...bits)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(await verifyPassword("old password", `pbkdf2-sha256$1000$${salt}$${hash}`)).toBe(true);
  });
});

describe("sign-up", () => {
  it("signs the browser in with an HttpOnly, Secure, SameSite=Lax __Host- cookie whose token is stored only hashed", async () => {
    const browser = new ConsoleBrowser();
    await browser.open("/console/sign-up");
    const res = await browser.post("/console/sign-up", { email: `a-${crypto.randomUUID()}@example.co.kr`, password: "correct horse battery", workspaceName: "가나다", businessNumber: "1208800767" });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/console\/w\/[0-9a-f-]{36}\/keys$/);
    const line = browser.lastSetCookies.find((l) => l.startsWith("__Host-console_session="))!;
    expect(line).toBeDefined();
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; Secure/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Path=\//);
    expect(line).not.toMatch(/Domain=/i);
    const token = browser.cookies.get("__Host-console_session")!;
    const stored = await env.DB.prepare("SELECT token_hash FROM console_sessions WHERE token_hash IN (?, ?)").bind(token, await sha256Hex(token)).all();
    expect(stored.results).toEqual([{ token_hash: await sha256Hex(token) }]);
    expect((await browser.open(res.location!)).status).toBe(200);
  });

  it("drops the __Host- prefix and Secure only on plain http, where a developer's machine serves the console", async () => {
    const browser = new ConsoleBrowser(undefined, "http://localhost:8787");
    await browser.signUp();
    const line = browser.lastSetCookies.concat([...browser.cookies.keys()]).join("\n");
    expect([...browser.cookies.keys()]).toContain("console_session");
    expect(line).not.toMatch(/__Host-/);
  });

  it("refuses a personal e-mail with PERSONAL_EMAIL_NOT_ALLOWED and a taken one with DUPLICATE_EMAIL", async () => {
    const browser = new ConsoleBrowser();
    await browser.open("/console/sign-up");
    const personal = await browser.post("/console/sign-up", { email: "someone@naver.com", password: "correct horse battery", workspaceName: "개인", businessNumber: "1208800767" });
    expect(personal.status).toBe(400);
    expect(alertCode(personal.html)).toBe("PERSONAL_EMAIL_NOT_ALLOWED");
    expect(personal.html).toContain("회사 이메일");

    const { email } = await new ConsoleBrowser().signUp();
    const again = await browser.post("/console/sign-up", { email: email.toUpperCase(), password: "another password", workspaceName: "둘째", businessNumber: "1208800767" });
    expect(again.status).toBe(409);
    expect(alertCode(again.html)).toBe("DUPLICATE_EMAIL");
    const count = await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(email).first<{ n: number }>();
    expect(count!.n).toBe(1);
  });

  it("asks for the business number and refuses one that fails its check digit, making no user", async () => {
    const browser = new ConsoleBrowser();
    expect((await browser.open("/console/sign-up")).html).toContain('name="businessNumber"');
    const email = `bn-${crypto.randomUUID()}@example.co.kr`;
    const wrong = await browser.post("/console/sign-up", { email, password: "correct horse battery", workspaceName: "가나다", businessNumber: "120-88-00768" });
    expect(wrong.status).toBe(400);
    expect(alertCode(wrong.html)).toBe("INVALID_BUSINESS_REGISTRATION_NUMBER");
    const missing = await browser.post("/console/sign-up", { email, password: "correct horse battery", workspaceName: "가나다" });
    expect(alertCode(missing.html)).toBe("MISSING_REQUIRED_PARAM");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(email).first<{ n: number }>()).toEqual({ n: 0 });
    const right = await browser.post("/console/sign-up", { email, password: "correct horse battery", workspaceName: "가나다", businessNumber: "120-88-00767" });
    const workspaceId = /\/console\/w\/([0-9a-f-]+)\//.exec(right.location ?? "")![1]!;
    expect(await env.DB.prepare("SELECT business_number AS bn FROM workspaces WHERE id = ?").bind(workspaceId).first()).toEqual({ bn: "1208800767" });
  });
});

describe("sign-up throttling", () => {
  it("refuses an address's sign-ups past its limit with API_RATE_LIMITED and Retry-After, taken e-mail or not", async () => {
    const browser = new ConsoleBrowser();
    const taken = (await new ConsoleBrowser().signUp()).email;
    for (let i = 0; i < SIGN_UPS_PER_ADDRESS; i++) {
      await browser.open("/console/sign-up");
      const res = await browser.post("/console/sign-up", { email: taken, password: "correct horse battery", workspaceName: "가나다", businessNumber: "1208800767" });
      expect(alertCode(res.html)).toBe("DUPLICATE_EMAIL");
    }
    for (const email of [taken, `new-${crypto.randomUUID()}@example.co.kr`]) {
      await browser.open("/console/sign-up");
      const res = await browser.post("/console/sign-up", { email, password: "correct horse battery", workspaceName: "가나다", businessNumber: "1208800767" });
      expect(res.status).toBe(429);
      expect(alertCode(res.html)).toBe("API_RATE_LIMITED");
      expect(Number(res.response.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
    // Another address signs up as usual.
    expect((await new ConsoleBrowser().signUp()).workspaceId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("CSRF protection", () => {
  it("refuses a sign-up or sign-in form without the token the page gave, or posted from another origin", async () => {
    const browser = new ConsoleBrowser();
    await browser.open("/console/sign-up");
    const form = { email: `c-${crypto.randomUUID()}@example.co.kr`, password: "correct horse battery", workspaceName: "가", businessNumber: "1208800767" };
    for (const res of [
      await browser.post("/console/sign-up", { ...form, _csrf: "" }),
      await browser.post("/console/sign-up", { ...form, _csrf: "forged-token-of-the-same-length-0" }),
      await browser.post("/console/sign-up", form, { Origin: "https://evil.example" }),
      // Another visitor's page token is not this visitor's.
      await new ConsoleBrowser().post("/console/sign-up", { ...form, _csrf: browser.csrf() }),
    ]) {
      expect(res.status).toBe(400);
      const body = JSON.parse(res.html) as Json;
      expect(body.code).toBe("MALFORMED_REQUEST");
      expect(body.message).toContain("보안 토큰");
    }
    expect(await env.DB.prepare("SELECT 1 FROM users WHERE email = ?").bind(form.email).first()).toBeNull();
  });

  it("binds a signed-in form's token to the session: the pre-sign-in token, or another session's, does not issue a key", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const other = new ConsoleBrowser();
    await other.signUp();
    const preSignIn = browser.cookies.get("__Host-console_csrf")!;
    for (const token of [preSignIn, other.csrf()]) {
      const res = await browser.post(`/console/w/${workspaceId}/keys`, { name: "훔친 토큰", _csrf: token });
      expect(res.status).toBe(400);
    }
    const issued = await browser.post(`/console/w/${workspaceId}/keys`, { name: "정상" });
    expect(issued.status).toBe(201);
  });
});

describe("sign-in", () => {
  it("answers a wrong password with INVALID_CREDENTIALS and the right one with a session", async () => {
    const { email, password, workspaceId } = await new ConsoleBrowser().signUp();
    const browser = new ConsoleBrowser();
    const wrong = await browser.signIn(email, "not the password");
    expect(wrong.status).toBe(401);
    expect(alertCode(wrong.html)).toBe("INVALID_CREDENTIALS");
    const unknown = await browser.signIn(`nobody-${crypto.randomUUID()}@example.co.kr`, password);
    expect(unknown.status).toBe(401);
    expect(alertCode(unknown.html)).toBe("INVALID_CREDENTIALS");
    const right = await browser.signIn(email, password);
    expect(right.status).toBe(303);
    expect((await browser.open(`/console/w/${workspaceId}/keys`)).status).toBe(200);
  });

  it("keeps the right password working from an address that has not been guessing, while a guessing address waits longer after each failure", async () => {
    // Retry-After counts down from the failure: a loaded machine may take a few seconds between the two requests.
    const expectSecondsLeft = (response: Response, waitMs: number) => {
      const left = Number(response.headers.get("Retry-After"));
      expect(left).toBeLessThanOrEqual(waitMs / 1000);
      expect(left).toBeGreaterThan(waitMs / 1000 - 10);
    };
    const { email, password } = await new ConsoleBrowser().signUp();
    const guesser = new ConsoleBrowser();
    for (let i = 0; i < FREE_GUESSES; i++) expect((await guesser.signIn(email, `wrong ${i}`)).status).toBe(401);
    const held = await guesser.signIn(email, password);
    expect(held.status).toBe(429);
    expect(alertCode(held.html)).toBe("TOO_MANY_LOGIN_ATTEMPTS");
    expectSecondsLeft(held.response, guessWaitMs(FREE_GUESSES));
    // Others' guesses do not lock the owner out.
    expect((await new ConsoleBrowser().signIn(email, password)).status).toBe(303);
    // After the wait the guesser may try again; a further failure doubles its wait.
    await env.DB.prepare("UPDATE login_attempts SET last_attempt_at = last_attempt_at - ? WHERE subject LIKE 'guess:%'").bind(guessWaitMs(FREE_GUESSES)).run();
    expect((await guesser.signIn(email, "wrong again")).status).toBe(401);
    expectSecondsLeft((await guesser.signIn(email, password)).response, guessWaitMs(FREE_GUESSES + 1));
    expect(guessWaitMs(FREE_GUESSES + 1)).toBe(2 * guessWaitMs(FREE_GUESSES));
  });

  it("mails the owner a one-time unlock link once the account has been guessed at, which lets a held-back address in at once", async () => {
    const { email, password } = await new ConsoleBrowser().signUp();
    const own = new ConsoleBrowser();
    for (let i = 0; i < FREE_GUESSES; i++) await own.signIn(email, `typo ${i}`);
    for (let i = FREE_GUESSES; i < UNLOCK_MAIL_AFTER; i++) expect((await new ConsoleBrowser().signIn(email, `guess ${i}`)).status).toBe(401);
    const mail = await env.DB.prepare("SELECT subject, body FROM mail_outbox WHERE recipient = ? AND body LIKE '%/console/unlock?%'").bind(email).all<{ subject: string; body: string }>();
    expect(mail.results).toHaveLength(1);
    const link = /https?:\/\/\S+\/console\/unlock\?token=\S+/.exec(mail.results[0]!.body)![0];
    expect((await own.signIn(email, password)).status).toBe(429);
    const page = await own.open(new URL(link).pathname + new URL(link).search);
    expect(page.status).toBe(200);
    const token = new URL(link).searchParams.get("token")!;
    const unlocked = await own.post("/console/unlock", { token });
    expect(unlocked.html).toContain('id="link-done"');
    expect((await own.signIn(email, password)).status).toBe(303);
    // The link works once.
    await own.open(new URL(link).pathname + new URL(link).search);
    expect(alertCode((await own.post("/console/unlock", { token })).html)).toBe("INVALID_TOKEN");
  });

  it("forgives an address's failures on the account once the right password signs in from it", async () => {
    const { email, password } = await new ConsoleBrowser().signUp();
    const browser = new ConsoleBrowser();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < FREE_GUESSES - 1; i++) expect((await browser.signIn(email, "wrong")).status).toBe(401);
      expect((await browser.signIn(email, password)).status).toBe(303);
    }
  });

  it("limits one address guessing across many e-mails", async () => {
    const browser = new ConsoleBrowser();
    for (let i = 0; i < ATTEMPTS_PER_ADDRESS; i++) expect((await browser.signIn(`guess-${i}-${crypto.randomUUID()}@example.co.kr`, "pw")).status).toBe(401);
    const res = await browser.signIn(`guess-last-${crypto.randomUUID()}@example.co.kr`, "pw");
    expect(res.status).toBe(429);
    expect(alertCode(res.html)).toBe("TOO_MANY_LOGIN_ATTEMPTS");
  });

  it("counts an IPv6 client by its /64, as one subscriber holds it whole: new addresses of the guessing /64 are held back with it, another /64 is not", async () => {
    const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
    const net = `2001:db8:${hex()}:${hex()}`;
    for (let i = 0; i < ATTEMPTS_PER_ADDRESS; i++) {
      const browser = new ConsoleBrowser(`${net}:${hex()}:${hex()}:${hex()}:${i + 1}`);
      expect((await browser.signIn(`guess-${i}-${crypto.randomUUID()}@example.co.kr`, "pw")).status, String(i)).toBe(401);
    }
    const sameNet = await new ConsoleBrowser(`${net}::abcd`).signIn(`guess-last-${crypto.randomUUID()}@example.co.kr`, "pw");
    expect(sameNet.status).toBe(429);
    expect(alertCode(sameNet.html)).toBe("TOO_MANY_LOGIN_ATTEMPTS");
    expect((await new ConsoleBrowser(`2001:db8:${hex()}:${hex()}::1`).signIn(`guess-${crypto.randomUUID()}@example.co.kr`, "pw")).status).toBe(401);
    // How addresses are written does not matter; an IPv4-mapped address is its IPv4 address.
    expect(limitedAddress("2001:DB8:0:00a::1")).toBe("2001:db8:0:a::/64");
    expect(limitedAddress("2001:db8:0:a:ffff:ffff:ffff:ffff")).toBe("2001:db8:0:a::/64");
    expect(limitedAddress("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(limitedAddress("192.0.2.7")).toBe("192.0.2.7");
  });

  it("signs out: the old cookie no longer opens a page", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const cookie = browser.cookies.get("__Host-console_session")!;
    const out = await browser.post("/console/sign-out", {});
    expect(out.status).toBe(303);
    const replay = new ConsoleBrowser();
    replay.cookies.set("__Host-console_session", cookie);
    const res = await replay.open(`/console/w/${workspaceId}/keys`);
    expect(res.status).toBe(303);
    expect(res.response.headers.get("Location")).toBe(`/console/sign-in?next=${encodeURIComponent(`/console/w/${workspaceId}/keys`)}`);
  });
});

describe("sessions", () => {
  it("end after 30 idle minutes, and a session in use lasts no longer than its 12 hours", async () => {
    const t0 = Date.now();
    const minute = 60_000;
    const { token } = await openSession(env.DB, "idle-user", t0);
    expect(await findSession(env.DB, token, t0 + 29 * minute)).not.toBeNull();
    expect(await findSession(env.DB, token, t0 + 58 * minute)).not.toBeNull();
    // 30 minutes and a second after its last use.
    expect(await findSession(env.DB, token, t0 + 58 * minute + SESSION_IDLE_MS + 1000)).toBeNull();

    const busy = await openSession(env.DB, "busy-user", t0);
    for (let at = t0 + 20 * minute; at < t0 + SESSION_TTL_MS; at += 20 * minute) expect(await findSession(env.DB, busy.token, at), String(at - t0)).not.toBeNull();
    expect(await findSession(env.DB, busy.token, t0 + SESSION_TTL_MS + 1000)).toBeNull();
  });

  it("are all closed by signing out everywhere, in every browser the user signed in with", async () => {
    const laptop = new ConsoleBrowser();
    const { email, password, workspaceId } = await laptop.signUp();
    const phone = new ConsoleBrowser();
    expect((await phone.signIn(email, password)).status).toBe(303);
    const keys = `/console/w/${workspaceId}/keys`;
    expect((await phone.open(keys)).status).toBe(200);
    const out = await laptop.post("/console/sign-out-everywhere", {});
    expect(out.status).toBe(303);
    expect(out.location).toBe("/console/sign-in");
    for (const browser of [laptop, phone]) {
      const page = await browser.open(keys);
      expect(page.status).toBe(303);
      expect(page.response.headers.get("Location")).toMatch(/^\/console\/sign-in\?next=/);
    }
    const left = await env.DB.prepare("SELECT count(*) AS n FROM console_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ?").bind(email).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });
});

describe("page headers", () => {
  it("forbids framing and caching of console pages, runs only their own nonce's scripts, and keeps to https", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const nonces = new Set<string>();
    for (const path of ["/console/sign-in", "/console/device", `/console/w/${workspaceId}/jobs`]) {
      const { response, html } = await browser.open(path);
      const policy = response.headers.get("Content-Security-Policy")!;
      expect(policy, path).toContain("frame-ancestors 'none'");
      expect(policy, path).toContain("object-src 'none'");
      const nonce = /script-src 'nonce-([A-Za-z0-9_-]{20,})'/.exec(policy)?.[1];
      expect(nonce, path).toBeDefined();
      nonces.add(nonce!);
      // Every script the page carries has this response's nonce, and no other.
      expect([...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]), path).toEqual([...html.matchAll(/<script/g)].map(() => ` nonce="${nonce}"`));
      expect(response.headers.get("X-Frame-Options"), path).toBe("DENY");
      expect(response.headers.get("Cache-Control"), path).toBe("no-store");
      expect(response.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
      expect(response.headers.get("Referrer-Policy"), path).toBe("same-origin");
      expect(response.headers.get("Strict-Transport-Security"), path).toBe("max-age=31536000; includeSubDomains");
    }
    expect(nonces.size).toBe(3);
    const local = new ConsoleBrowser(undefined, "http://localhost:8787");
    expect((await local.open("/console/sign-in")).response.headers.get("Strict-Transport-Security")).toBeNull();
  });
});

describe("workspaces", () => {
  it("answers a member of one workspace WORKSPACE_ACCESS_DENIED on another's pages and forms: a 403 page saying they are not a member, with a way to their workspaces; JSON only to a request asking only for JSON", async () => {
    const alice = new ConsoleBrowser();
    const { workspaceId: alices } = await alice.signUp();
    const { workspaceId: bobs } = await new ConsoleBrowser().signUp();
    const page = await alice.open(`/console/w/${bobs}/keys`);
    const post = await alice.post(`/console/w/${bobs}/keys`, { name: "남의 키" });
    for (const [what, refused] of [["page", page], ["form", post]] as const) {
      expect([what, refused.status, refused.response.headers.get("Content-Type")]).toEqual([what, 403, "text/html; charset=UTF-8"]);
      expect(alertCode(refused.html), what).toBe("WORKSPACE_ACCESS_DENIED");
      expect(refused.html, what).toContain("이 워크스페이스의 구성원이 아닙니다");
      expect(refused.html, what).toContain('<a href="/console/workspaces">워크스페이스 목록으로 돌아가기</a>');
      expect(refused.response.headers.get("Content-Security-Policy"), what).toContain("frame-ancestors 'none'");
      // Not their workspace: no menu of its pages.
      expect(refused.html, what).not.toContain('aria-label="콘솔 메뉴"');
    }
    const script = await alice.request(`/console/w/${bobs}/jobs`, { headers: { Accept: "application/json" } });
    expect([script.status, script.headers.get("Content-Type"), ((await script.json()) as { code: string }).code]).toEqual([403, "application/json", "WORKSPACE_ACCESS_DENIED"]);
    // A member of a workspace an operator suspended is told that, not that they are no member.
    await changeSuspension(env, alices, Date.now());
    const suspended = await alice.open(`/console/w/${alices}/jobs`);
    expect([suspended.status, alertCode(suspended.html)]).toEqual([403, "WORKSPACE_ACCESS_DENIED"]);
    expect(suspended.html).toContain("운영자가 이 워크스페이스의 이용을 정지했습니다");
    expect(suspended.html).not.toContain("구성원이 아닙니다");
    const keys = await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE workspace_id = ?").bind(bobs).first<{ n: number }>();
    expect(keys!.n).toBe(0);
  });
});

describe("API keys in the console", () => {
  it("shows a new key once, which then calls the API, and revoking it stops it at once", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const issued = await browser.post(`/console/w/${workspaceId}/keys`, { name: "배치 서버" });
    expect(issued.status).toBe(201);
    const secret = /<code id="issued-secret">(sk_[A-Za-z0-9_-]+)<\/code>/.exec(issued.html)![1]!;
    expect((await callJson("/api/v1/providers", { key: secret })).status).toBe(200);

    const list = await browser.open(`/console/w/${workspaceId}/keys`);
    expect(list.html).toContain("배치 서버");
    expect(list.html).not.toContain(secret);
    const keyId = /data-key-id="([0-9a-f-]+)"/.exec(list.html)![1]!;
    const revoked = await browser.post(`/console/w/${workspaceId}/keys/${keyId}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(revoked.html).toContain("폐기됨");
    expect((await callJson<Json>("/api/v1/providers", { key: secret })).body.code).toBe("INVALID_TOKEN");
    const again = await browser.post(`/console/w/${workspaceId}/keys/${keyId}/revoke`, {});
    expect(alertCode(again.html)).toBe("API_KEY_ALREADY_REVOKED");
  });

  it("sends a visitor without a session to sign in", async () => {
    const res = await new ConsoleBrowser().open(`/console/w/${crypto.randomUUID()}/keys`);
    expect(res.status).toBe(303);
    expect(res.response.headers.get("Location")).toMatch(/^\/console\/sign-in\?next=/);
  });
});
