import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../../worker/platform/lib/crypto";
import { callJson } from "../../../support/workers/helpers";
import { alertCode, ConsoleBrowser } from "../../../support/workers/console-browser";
import { kst } from "../../../../worker/web/kst";

type Json = Record<string, any>;

const start = () => callJson<Json>("/oauth/device_authorization", { method: "POST", json: { clientName: "collect CLI", platform: "linux x64, Node 22.12.0" } });
const poll = (deviceCode: string) => callJson<Json>("/oauth/device/token", { method: "POST", json: { device_code: deviceCode } });
/** Moves a code's clock: as if its last poll (and its expiry) were `ms` earlier. */
const age = async (deviceCode: string, ms: number) =>
  env.DB.prepare("UPDATE device_codes SET last_polled_at = last_polled_at - ?1, expires_at = expires_at - ?1 WHERE device_code_hash = ?2").bind(ms, await sha256Hex(deviceCode)).run();

describe("device authorization grant (RFC 8628)", () => {
  it("issues a device code, a user code and the console's verification URIs without an API key", async () => {
    const res = await start();
    expect(res.status).toBe(200);
    expect(res.body.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(res.body.device_code).toMatch(/^dc_/);
    expect(res.body.verification_uri).toBe("https://api.test/console/device");
    expect(res.body.verification_uri_complete).toBe(`https://api.test/console/device?user_code=${res.body.user_code}`);
    expect(res.body).toMatchObject({ expires_in: 600, interval: 5 });
  });

  it("answers authorization_pending, slow_down when polled too soon, then one API key of the approver's workspace that the keys page lists and revokes", async () => {
    const { body: started } = await start();
    const first = await poll(started.device_code);
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ code: "DEVICE_AUTHORIZATION_PENDING", error: "authorization_pending", error_description: first.body.message, requestId: expect.any(String) });
    const tooSoon = await poll(started.device_code);
    expect(tooSoon.body).toMatchObject({ code: "DEVICE_SLOW_DOWN", error: "slow_down" });
    // The interval grew by 5 s: 5 s after the last poll is still too soon.
    await age(started.device_code, 5_000);
    expect((await poll(started.device_code)).body.error).toBe("slow_down");

    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const page = await browser.open(`/console/device?user_code=${started.user_code}`);
    expect(page.html).toContain(`value="${started.user_code}"`);
    // Typed in lower case without the dash, as people do.
    const approved = await browser.post("/console/device", { user_code: started.user_code.replace("-", "").toLowerCase(), workspaceId, decision: "approve" });
    expect(approved.status).toBe(200);
    expect(approved.html).toContain("collect CLI");

    await age(started.device_code, 20_000);
    const granted = await poll(started.device_code);
    expect(granted.status).toBe(200);
    expect(granted.headers.get("Cache-Control")).toBe("no-store");
    expect(granted.body).toMatchObject({ token_type: "Bearer", workspaceId });
    expect((await callJson("/api/v1/schemas", { key: granted.body.access_token })).status).toBe(200);
    const again = await poll(started.device_code);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: "DEVICE_CODE_INVALID", error: "invalid_grant" });

    const keys = await browser.open(`/console/w/${workspaceId}/keys`);
    expect(keys.html).toContain("collect CLI");
    const revoked = await browser.post(`/console/w/${workspaceId}/keys/${granted.body.apiKey.id}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect((await callJson<Json>("/api/v1/schemas", { key: granted.body.access_token })).body.code).toBe("INVALID_TOKEN");
  });

  it("answers an expired device code DEVICE_CODE_EXPIRED, an unknown one DEVICE_CODE_INVALID, and their user codes USER_CODE_EXPIRED / USER_CODE_INVALID", async () => {
    const { body: started } = await start();
    await poll(started.device_code);
    await age(started.device_code, 601_000);
    const expired = await poll(started.device_code);
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ code: "DEVICE_CODE_EXPIRED", error: "expired_token" });
    expect(expired.body.message).toMatch(/[가-힣]/);
    const unknown = await poll("dc_made-up");
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "DEVICE_CODE_INVALID", error: "invalid_grant" });

    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    // Any signed-in page carries the session's form token.
    await browser.open(`/console/w/${workspaceId}/keys`);
    const late = await browser.post("/console/device", { user_code: started.user_code, workspaceId, decision: "approve" });
    expect(late.status).toBe(410);
    expect(alertCode(late.html)).toBe("USER_CODE_EXPIRED");
    await browser.open(`/console/w/${workspaceId}/keys`);
    const wrong = await browser.post("/console/device", { user_code: "BBBB-BBBB", workspaceId, decision: "approve" });
    expect(wrong.status).toBe(404);
    expect(alertCode(wrong.html)).toBe("USER_CODE_INVALID");
  });

  it("lets no one approve a code for a workspace they are not a member of", async () => {
    const { body: started } = await start();
    const { workspaceId: someoneElses } = await new ConsoleBrowser().signUp();
    const browser = new ConsoleBrowser();
    const { workspaceId: own } = await browser.signUp();
    await browser.open(`/console/w/${own}/keys`);
    const res = await browser.post("/console/device", { user_code: started.user_code, workspaceId: someoneElses, decision: "approve" });
    expect(res.status).toBe(403);
    expect(alertCode(res.html)).toBe("WORKSPACE_ACCESS_DENIED");
    expect((await poll(started.device_code)).body.error).toBe("authorization_pending");
  });

  it("sends a signed-out visitor of the verification link through sign-in and back to it with the code", async () => {
    const { body: started } = await start();
    const { email, password } = await new ConsoleBrowser().signUp();
    const browser = new ConsoleBrowser();
    const first = await browser.open(new URL(started.verification_uri_complete).pathname + new URL(started.verification_uri_complete).search);
    expect(first.status).toBe(303);
    const signIn = first.response.headers.get("Location")!;
    await browser.open(signIn);
    const signedIn = await browser.post("/console/sign-in", { email, password, next: new URL(signIn, "https://x").searchParams.get("next")! });
    expect(signedIn.location).toBe(`/console/device?user_code=${started.user_code}`);
  });

  it("shows what asks before approval: the client's name and platform, when it asked, and the key's rights and lifetime", async () => {
    const { body: started } = await start();
    const browser = new ConsoleBrowser();
    await browser.signUp();
    const page = await browser.open(`/console/device?user_code=${started.user_code}`);
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/id="device-client">collect CLI</);
    expect(page.html).toMatch(/id="device-platform">linux x64, Node 22\.12\.0</);
    expect(page.html).toMatch(/id="device-asked-at">\d{4}\. \d{1,2}\. \d{1,2}\./);
    expect(page.html).toContain("90일 뒤 만료");
    expect(page.html).toContain('value="deny"');
  });

  // RFC 8628 §5.4: the page shows the code, so the user can compare it with the one their command line printed (a
  // link someone else sent carries their code); approving and denying do not look alike.
  it("shows the user code as the command line printed it, however it was typed, and sets approve apart from deny", async () => {
    const { body: started } = await start();
    const browser = new ConsoleBrowser();
    await browser.signUp();
    const page = await browser.open(`/console/device?user_code=${started.user_code.replace("-", "").toLowerCase()}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`id="device-user-code">${started.user_code}<`);
    const button = (value: string) => new RegExp(`<button[^>]*value="${value}"[^>]*>`).exec(page.html)?.[0] ?? "";
    expect(button("approve")).not.toMatch(/class=/);
    expect(button("deny")).toContain('class="danger"');
  });

  it("answers the polling client access_denied after the user denies, and issues no key", async () => {
    const { body: started } = await start();
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    // Any signed-in page carries the session's form token.
    await browser.open(`/console/w/${workspaceId}/keys`);
    const denied = await browser.post("/console/device", { user_code: started.user_code, workspaceId, decision: "deny" });
    expect(denied.status).toBe(200);
    expect(denied.html).toContain('data-approved="false"');
    await age(started.device_code, 20_000);
    const res = await poll(started.device_code);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "DEVICE_ACCESS_DENIED", error: "access_denied" });
    const keys = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = ? AND device_issued = 1").bind(workspaceId).first<{ n: number }>();
    expect(keys!.n).toBe(0);
    // A decided code cannot be decided again.
    await browser.open(`/console/w/${workspaceId}/keys`);
    expect((await browser.post("/console/device", { user_code: started.user_code, workspaceId, decision: "approve" })).status).toBe(404);
  });

  it("issues a device key that expires in 90 days (expires_in, RFC 6749 5.1), marked device-issued with its approver as issuer, and none if the approver left the workspace before the poll", async () => {
    const { body: started } = await start();
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    // Any signed-in page carries the session's form token.
    await browser.open(`/console/w/${workspaceId}/keys`);
    await browser.post("/console/device", { user_code: started.user_code, workspaceId, decision: "approve" });
    await age(started.device_code, 20_000);
    const granted = await poll(started.device_code);
    expect(granted.body.apiKey).toMatchObject({ deviceIssued: true, canManageKeys: false });
    const lifetime = Date.parse(granted.body.apiKey.expiresAt) - Date.parse(granted.body.apiKey.createdAt);
    expect(Math.round(lifetime / 86_400_000)).toBe(90);
    expect(granted.body.expires_in).toBeLessThanOrEqual(90 * 86_400);
    expect(granted.body.expires_in).toBeGreaterThan(90 * 86_400 - 60);
    const approver = await env.DB.prepare("SELECT user_id AS id FROM workspace_members WHERE workspace_id = ?").bind(workspaceId).first<{ id: string }>();
    const row = await env.DB.prepare("SELECT issued_to_user_id AS issuedTo, issued_by_user_id AS issuedBy FROM api_keys WHERE id = ?").bind(granted.body.apiKey.id).first();
    expect(row).toEqual({ issuedTo: approver!.id, issuedBy: approver!.id });
    const keysPage = (await browser.open(`/console/w/${workspaceId}/keys`)).html;
    expect(keysPage).toContain("명령줄 로그인으로 발급");
    // Its expiry in Korean time, as every other moment of the console.
    expect(keysPage).toContain(`사용 중 (${kst(Date.parse(granted.body.apiKey.expiresAt))} 만료)`);

    const { body: second } = await start();
    await browser.post("/console/device", { user_code: second.user_code, workspaceId, decision: "approve" });
    await env.DB.prepare("DELETE FROM workspace_members WHERE workspace_id = ?").bind(workspaceId).run();
    await age(second.device_code, 20_000);
    expect((await poll(second.device_code)).body).toMatchObject({ code: "DEVICE_ACCESS_DENIED", error: "access_denied" });
    const keys = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = ? AND device_issued = 1 AND revoked_at IS NULL").bind(workspaceId).first<{ n: number }>();
    expect(keys!.n).toBe(1);
  });
});
