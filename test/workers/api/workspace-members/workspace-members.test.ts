import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { issueApiKey } from "../../../../worker/domain/api-keys/store";
import { sha256Hex } from "../../../../worker/platform/lib/crypto";
import { INVITATIONS_PER_DAY } from "../../../../worker/domain/users/invitations";
import { alertCode, ConsoleBrowser } from "../../../support/workers/console-browser";
import { callJson } from "../../../support/workers/helpers";

type Json = Record<string, any>;

/** A signed-up owner's workspace, with a managing API key for the members API. */
async function ownedWorkspace() {
  const owner = new ConsoleBrowser();
  const account = await owner.signUp();
  const key = (await issueApiKey(env.DB, { workspaceId: account.workspaceId, name: "관리", canManageKeys: true })).secret;
  const api = <T = Json>(method: string, path: string, json?: unknown) => callJson<T>(`/api/v1${path}`, { method, key, ...(json === undefined ? {} : { json }) });
  return { owner, account, key, api };
}

/** The invitation link last mailed to `to`, as the mail has it. */
async function mailedLink(to: string): Promise<string> {
  const mail = await env.DB.prepare("SELECT subject, body FROM mail_outbox WHERE recipient = ? ORDER BY created_at DESC, rowid DESC").bind(to).first<{ subject: string; body: string }>();
  expect(mail?.subject).toContain("테스트 회사");
  return /\/console\/invitation\?token=\S+/.exec(mail!.body)![0];
}

const tokenOf = (link: string) => new URLSearchParams(link.split("?")[1]).get("token")!;

const address = () => `colleague-${crypto.randomUUID()}@example.co.kr`;

describe("inviting people to a workspace", () => {
  it("mails a one-time link with which someone without an account chooses a password and lands in the workspace as invited", async () => {
    const { api, account } = await ownedWorkspace();
    const email = address();
    const invited = await api("POST", "/workspace/members/invitations", { email: email.toUpperCase() });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect(invited.body).toMatchObject({ email, role: "member" });
    expect(Date.parse(invited.body.expiresAt) - Date.parse(invited.body.createdAt)).toBe(7 * 86_400_000);
    expect((await api("GET", "/workspace/members/invitations")).body.items.map((i: Json) => i.email)).toEqual([email]);

    const link = await mailedLink(email);
    const stored = await env.DB.prepare("SELECT token_hash FROM workspace_invitations WHERE email = ?").bind(email).first<{ token_hash: string }>();
    expect(stored!.token_hash).toBe(await sha256Hex(tokenOf(link)));

    const colleague = new ConsoleBrowser();
    const page = await colleague.open(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain("계정 만들고 참여");
    // Opening the link spends nothing: a mail scanner's GET leaves it pending.
    expect((await api("GET", "/workspace/members/invitations")).body.items).toHaveLength(1);
    const short = await colleague.post("/console/invitation", { token: tokenOf(link), password: "short" });
    expect(alertCode(short.html)).toBe("INVALID_PARAM_FORMAT");
    await colleague.open(link);
    const joined = await colleague.post("/console/invitation", { token: tokenOf(link), password: "correct horse battery" });
    expect(joined.status, joined.html.slice(0, 500)).toBe(303);
    expect(joined.location).toBe(`/console/w/${account.workspaceId}/jobs`);
    expect((await colleague.open(joined.location!)).status).toBe(200);
    // The link reached the address: it counts as confirmed.
    const user = await env.DB.prepare("SELECT email_verified_at FROM users WHERE email = ?").bind(email).first<{ email_verified_at: number | null }>();
    expect(user!.email_verified_at).not.toBeNull();

    const members = (await api("GET", "/workspace/members")).body.items;
    expect(members.map((m: Json) => [m.email, m.role])).toEqual([
      [email, "member"],
      [account.email, "owner"],
    ]);
    expect((await api("GET", "/workspace/members/invitations")).body.items).toEqual([]);
    const again = await new ConsoleBrowser().open(link);
    expect(alertCode(again.html)).toBe("INVALID_TOKEN");
    expect(again.html).not.toContain("계정 만들고 참여");
  });

  it("lets only the invited address accept: another signed-in person is refused and the invited one signs in, accepts and switches between workspaces", async () => {
    const { api, account } = await ownedWorkspace();
    const other = new ConsoleBrowser();
    await other.signUp();
    const invitee = new ConsoleBrowser();
    const own = await invitee.signUp();
    await api("POST", "/workspace/members/invitations", { email: own.email, role: "owner" });
    const link = await mailedLink(own.email);

    const wrong = await other.open(link);
    expect(wrong.html).toContain(`${own.email} 계정으로만 수락`);
    // The page offers them no button; a post made anyway (with their session's form token) is refused.
    await other.open("/console/workspaces");
    const refused = await other.post("/console/invitation", { token: tokenOf(link) });
    expect(refused.status).toBe(403);
    expect(alertCode(refused.html)).toBe("WORKSPACE_ACCESS_DENIED");

    const signedOut = await new ConsoleBrowser().open(link);
    expect(signedOut.html).toContain(`/console/sign-in?next=${encodeURIComponent(link)}`);
    await invitee.open(link);
    const accepted = await invitee.post("/console/invitation", { token: tokenOf(link) });
    expect(accepted.location).toBe(`/console/w/${account.workspaceId}/jobs`);
    expect((await invitee.open(`/console/w/${account.workspaceId}/members`)).status).toBe(200);
    const switcher = await invitee.open("/console/workspaces");
    expect(switcher.html).toContain(`href="/console/w/${own.workspaceId}/jobs"`);
    expect(switcher.html).toContain(`href="/console/w/${account.workspaceId}/jobs"`);
  });

  it("refuses a member's address (DUPLICATE_EMAIL) and a malformed one, lets a new invitation replace the last link and a withdrawn one open nothing", async () => {
    const { api, account } = await ownedWorkspace();
    expect((await api("POST", "/workspace/members/invitations", { email: account.email })).body.code).toBe("DUPLICATE_EMAIL");
    const malformed = await api("POST", "/workspace/members/invitations", { email: "not an address" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("INVALID_PARAM_FORMAT");

    const email = address();
    await api("POST", "/workspace/members/invitations", { email });
    const first = await mailedLink(email);
    const second = await api("POST", "/workspace/members/invitations", { email, role: "owner" });
    expect(alertCode((await new ConsoleBrowser().open(first)).html)).toBe("INVALID_TOKEN");
    expect((await new ConsoleBrowser().open(await mailedLink(email))).html).toContain("소유자(owner)로 초대");
    expect((await api("DELETE", `/workspace/members/invitations/${second.body.id}`)).status).toBe(204);
    expect(alertCode((await new ConsoleBrowser().open(await mailedLink(email))).html)).toBe("INVALID_TOKEN");
    expect((await api("DELETE", `/workspace/members/invitations/${second.body.id}`)).body.code).toBe("RESOURCE_NOT_FOUND");
  });

  it(`sends at most ${INVITATIONS_PER_DAY} invitations in 24 hours, then 429 API_RATE_LIMITED with Retry-After until the oldest is a day old`, async () => {
    const { api, account } = await ownedWorkspace();
    const dayAgo = Date.now() - 86_400_000;
    // All but one sent long ago, and the first just over a day ago: only the 49 in the window count.
    for (let i = 0; i < INVITATIONS_PER_DAY; i++) {
      const created = i === 0 ? dayAgo - 1000 : dayAgo + 3_600_000 + i;
      await env.DB.prepare("INSERT INTO workspace_invitations (id, workspace_id, email, role, token_hash, created_at, expires_at) VALUES (?, ?, ?, 'member', ?, ?, ?)")
        .bind(crypto.randomUUID(), account.workspaceId, address(), crypto.randomUUID(), created, created + 7 * 86_400_000)
        .run();
    }
    expect((await api("POST", "/workspace/members/invitations", { email: address() })).status).toBe(201);
    const limited = await api("POST", "/workspace/members/invitations", { email: address() });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("API_RATE_LIMITED");
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
  });
});

describe("members and their roles", () => {
  /** A workspace with its owner and one invited member who joined through the link. */
  async function withMember() {
    const workspace = await ownedWorkspace();
    const email = address();
    await workspace.api("POST", "/workspace/members/invitations", { email });
    const member = new ConsoleBrowser();
    const link = await mailedLink(email);
    await member.open(link);
    await member.post("/console/invitation", { token: tokenOf(link), password: "correct horse battery" });
    const members: Json[] = (await workspace.api("GET", "/workspace/members")).body.items;
    const id = (who: string) => members.find((m) => m.email === who)!.userId as string;
    return { ...workspace, member, memberEmail: email, memberId: id(email), ownerId: id(workspace.account.email) };
  }

  it("never leaves a workspace without an owner: the last owner can be neither demoted nor removed, and anyone else is WORKSPACE_MEMBER_NOT_FOUND", async () => {
    const { api, ownerId, memberId } = await withMember();
    const demoted = await api("PATCH", `/workspace/members/${ownerId}`, { role: "member" });
    expect(demoted.status).toBe(403);
    expect(demoted.body).toMatchObject({ code: "ADMIN_ACTION_FORBIDDEN", message: expect.stringContaining("마지막 소유자") });
    expect((await api("DELETE", `/workspace/members/${ownerId}`)).body.code).toBe("ADMIN_ACTION_FORBIDDEN");
    for (const [method, json] of [["PATCH", { role: "owner" }], ["DELETE", undefined]] as const) {
      const unknown = await api(method, `/workspace/members/${crypto.randomUUID()}`, json);
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe("WORKSPACE_MEMBER_NOT_FOUND");
    }

    expect((await api("PATCH", `/workspace/members/${memberId}`, { role: "owner" })).body.role).toBe("owner");
    expect((await api("PATCH", `/workspace/members/${ownerId}`, { role: "member" })).body.role).toBe("member");
    expect((await api("PATCH", `/workspace/members/${memberId}`, { role: "member" })).body.code).toBe("ADMIN_ACTION_FORBIDDEN");
    const roles = await env.DB.prepare("SELECT role FROM workspace_members WHERE user_id IN (?, ?) ORDER BY role").bind(ownerId, memberId).all();
    expect(roles.results).toEqual([{ role: "member" }, { role: "owner" }]);
  });

  it("removes a member from the console and the API at once, revoking the keys their command-line sign-in got and keeping the workspace's own", async () => {
    const { api, key, account, member, memberId } = await withMember();
    const started = (await callJson<Json>("/oauth/device_authorization", { method: "POST", json: { clientName: "collect CLI", platform: "linux" } })).body;
    await member.open(`/console/w/${account.workspaceId}/jobs`);
    await member.post("/console/device", { user_code: started.user_code, workspaceId: account.workspaceId, decision: "approve" });
    await env.DB.prepare("UPDATE device_codes SET last_polled_at = last_polled_at - 20000 WHERE device_code_hash = ?").bind(await sha256Hex(started.device_code)).run();
    const cliKey = (await callJson<Json>("/oauth/device/token", { method: "POST", json: { device_code: started.device_code } })).body.access_token;
    expect((await callJson("/api/v1/data-jobs", { key: cliKey })).status).toBe(200);

    expect((await api("DELETE", `/workspace/members/${memberId}`)).status).toBe(204);
    expect((await callJson<Json>("/api/v1/data-jobs", { key: cliKey })).body.code).toBe("INVALID_TOKEN");
    expect((await api("GET", "/workspace/members")).status).toBe(200);
    expect((await callJson("/api/v1/data-jobs", { key })).status).toBe(200);
    // The removed member's bookmark: a page saying they are no longer a member, not the JSON envelope.
    const page = await member.open(`/console/w/${account.workspaceId}/jobs`);
    expect([page.status, page.response.headers.get("Content-Type"), alertCode(page.html)]).toEqual([403, "text/html; charset=UTF-8", "WORKSPACE_ACCESS_DENIED"]);
    expect(page.html).toContain("이 워크스페이스의 구성원이 아닙니다");
    expect(page.html).toContain('<a href="/console/workspaces">워크스페이스 목록으로 돌아가기</a>');
  });

  it("hands ownership over in the console, after which the new owner alone cannot leave and the former one can", async () => {
    const { owner, member, account, memberEmail, api } = await withMember();
    await owner.open(`/console/w/${account.workspaceId}/members`);
    const members: Json[] = (await api("GET", "/workspace/members")).body.items;
    const memberId = members.find((m) => m.email === memberEmail)!.userId;
    const handed = await owner.post(`/console/w/${account.workspaceId}/members/${memberId}/hand-over`, {});
    expect(handed.status).toBe(200);
    expect(handed.html).toContain("소유권을 넘겼습니다");
    expect((await api("GET", "/workspace/members")).body.items.map((m: Json) => [m.email, m.role])).toEqual([
      [memberEmail, "owner"],
      [account.email, "member"],
    ]);
    // The former owner's members page: a page naming the role that may open it, and the way to their workspaces.
    const demotedPage = await owner.open(`/console/w/${account.workspaceId}/members`);
    expect([demotedPage.status, alertCode(demotedPage.html)]).toEqual([403, "ADMIN_ACTION_FORBIDDEN"]);
    expect(demotedPage.html).toContain("구성원 관리는 워크스페이스 소유자(owner)만 할 수 있습니다");
    expect(demotedPage.html).toContain('<a href="/console/workspaces">워크스페이스 목록으로 돌아가기</a>');
    expect(demotedPage.html).toContain('aria-label="콘솔 메뉴"');
    const asScript = await owner.request(`/console/w/${account.workspaceId}/members`, { headers: { Accept: "application/json" } });
    expect([asScript.status, ((await asScript.json()) as Json).code]).toEqual([403, "ADMIN_ACTION_FORBIDDEN"]);

    await member.open("/console/workspaces");
    const stuck = await member.post(`/console/w/${account.workspaceId}/leave`, {});
    expect(stuck.status).toBe(403);
    expect(alertCode(stuck.html)).toBe("ADMIN_ACTION_FORBIDDEN");
    await owner.open("/console/workspaces");
    const left = await owner.post(`/console/w/${account.workspaceId}/leave`, {});
    expect(left.status).toBe(200);
    expect(left.html).not.toContain(`/console/w/${account.workspaceId}/jobs`);
    expect((await api("GET", "/workspace/members")).body.items.map((m: Json) => m.email)).toEqual([memberEmail]);
  });
});

describe("owner power that ends with ownership", () => {
  const keyRow = (secret: string) => sha256Hex(secret).then((hash) => env.DB.prepare("SELECT issued_by_user_id AS issuer, can_manage_keys AS managing, revoked_at AS revokedAt FROM api_keys WHERE hash = ?").bind(hash).first<Json>());
  const works = async (key: string) => (await callJson<Json>("/api/v1/data-jobs", { key })).status;
  const consoleKey = async (browser: ConsoleBrowser, workspaceId: string, managing: boolean) => {
    await browser.open(`/console/w/${workspaceId}/keys`);
    const issued = await browser.post(`/console/w/${workspaceId}/keys`, { name: managing ? "관리" : "데이터", ...(managing ? { canManageKeys: "1" } : {}) });
    return /id="issued-secret">([^<]+)</.exec(issued.html)![1]!;
  };
  const apiKey = async (maker: string, managing: boolean) => (await callJson<Json>("/api/v1/api-keys", { method: "POST", key: maker, json: { name: "API로 만든 키", canManageKeys: managing } })).body.secret as string;

  it("records who made each key, and revokes the managing keys an owner made, in the console and through the API from them, once they hand over, are demoted or removed; their data keys stay", async () => {
    const { owner, account, api } = await ownedWorkspace();
    const email = address();
    await api("POST", "/workspace/members/invitations", { email, role: "owner" });
    const second = new ConsoleBrowser();
    const link = await mailedLink(email);
    await second.open(link);
    await second.post("/console/invitation", { token: tokenOf(link), password: "correct horse battery" });
    const members: Json[] = (await api("GET", "/workspace/members")).body.items;
    const ownerId = members.find((m) => m.email === account.email)!.userId as string;
    const secondId = members.find((m) => m.email === email)!.userId as string;

    // The first owner's keys: a managing and a data key from the console, and two more made through the API by the managing one.
    const managing = await consoleKey(owner, account.workspaceId, true);
    const data = await consoleKey(owner, account.workspaceId, false);
    const [madeManaging, madeData] = [await apiKey(managing, true), await apiKey(managing, false)];
    for (const [key, isManaging] of [[managing, 1], [data, 0], [madeManaging, 1], [madeData, 0]] as const) expect(await keyRow(key)).toMatchObject({ issuer: ownerId, managing: isManaging, revokedAt: null });

    // Handing over: at once, the first owner's managing keys are refused and their data keys still work.
    await owner.open(`/console/w/${account.workspaceId}/members`);
    expect((await owner.post(`/console/w/${account.workspaceId}/members/${secondId}/hand-over`, {})).html).toContain("소유권을 넘겼습니다");
    expect((await callJson<Json>("/api/v1/api-keys", { key: managing })).body.code).toBe("INVALID_TOKEN");
    expect((await callJson<Json>("/api/v1/api-keys", { key: madeManaging })).body.code).toBe("INVALID_TOKEN");
    expect([await works(data), await works(madeData)]).toEqual([200, 200]);

    // Demotion through the API: the second owner's managing key goes with their role.
    const secondManaging = await consoleKey(second, account.workspaceId, true);
    expect((await api("PATCH", `/workspace/members/${ownerId}`, { role: "owner" })).status).toBe(200);
    expect((await api("PATCH", `/workspace/members/${secondId}`, { role: "member" })).status).toBe(200);
    expect((await callJson<Json>("/api/v1/data-jobs", { key: secondManaging })).body.code).toBe("INVALID_TOKEN");

    // Removal: promoted again, the second owner makes another one, and is removed.
    expect((await api("PATCH", `/workspace/members/${secondId}`, { role: "owner" })).status).toBe(200);
    const again = await consoleKey(second, account.workspaceId, true);
    expect(await works(again)).toBe(200);
    expect((await api("DELETE", `/workspace/members/${secondId}`)).status).toBe(204);
    expect((await callJson<Json>("/api/v1/data-jobs", { key: again })).body.code).toBe("INVALID_TOKEN");
    // Keys no person made (this test's own) stay.
    expect((await api("GET", "/workspace/members")).status).toBe(200);
  });

  it("keeps no managing key made by a key whose person stopped owning the workspace while it was being made", async () => {
    const { account, api } = await ownedWorkspace();
    const email = address();
    await api("POST", "/workspace/members/invitations", { email });
    const member = new ConsoleBrowser();
    const link = await mailedLink(email);
    await member.open(link);
    await member.post("/console/invitation", { token: tokenOf(link), password: "correct horse battery" });
    const memberId = ((await api("GET", "/workspace/members")).body.items as Json[]).find((m) => m.email === email)!.userId as string;
    // A managing key of someone who was an owner when it was made and has just been demoted, before the revocation reached it.
    const stale = (await issueApiKey(env.DB, { workspaceId: account.workspaceId, name: "경합", canManageKeys: true, issuedByUserId: memberId })).secret;
    const made = await callJson<Json>("/api/v1/api-keys", { method: "POST", key: stale, json: { name: "새 관리 키", canManageKeys: true } });
    expect(made.status).toBe(403);
    expect(made.body).toMatchObject({ code: "ADMIN_ACTION_FORBIDDEN", message: expect.stringContaining("소유자"), requestId: expect.any(String) });
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = ? AND name = '새 관리 키' AND revoked_at IS NULL").bind(account.workspaceId).first<{ n: number }>();
    expect(live!.n).toBe(0);
  });
});

describe("one-time tokens in mail", () => {
  it("reach the invited person through the mail binding while the outbox keeps only their hash", async () => {
    const { key } = await ownedWorkspace();
    const sent: { to: string; text: string }[] = [];
    const MAIL = { send: async (message: { to: string; text: string }) => void sent.push(message) } as unknown as SendEmail;
    const bindings = { ...env, MAIL, MAIL_FROM: "no-reply@collect-edge.co.kr", MAIL_OUTBOX_ONLY: undefined } as Env;
    const email = address();
    const invited = await callJson<Json>("/api/v1/workspace/members/invitations", { method: "POST", key, json: { email }, env: bindings });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);

    const token = tokenOf(/\/console\/invitation\?token=\S+/.exec(sent.find((m) => m.to === email)!.text)![0]);
    const stored = await env.DB.prepare("SELECT body, sent_at AS sentAt FROM mail_outbox WHERE recipient = ?").bind(email).first<{ body: string; sentAt: number | null }>();
    expect(stored!.sentAt).not.toBeNull();
    expect(stored!.body).not.toContain(token);
    expect(stored!.body).toContain(`/console/invitation?token=sha256:${await sha256Hex(token)}`);
    // The mailed link works.
    const colleague = new ConsoleBrowser();
    await colleague.open(`/console/invitation?token=${token}`);
    expect((await colleague.post("/console/invitation", { token, password: "correct horse battery" })).status).toBe(303);
  });
});

describe("accepting an invitation without an account", () => {
  it("checks the token before it hashes a password: a made-up or spent token costs no key derivation", async () => {
    const { api } = await ownedWorkspace();
    const email = address();
    await api("POST", "/workspace/members/invitations", { email });
    const token = tokenOf(await mailedLink(email));
    const browser = new ConsoleBrowser();
    await browser.open(`/console/invitation?token=${token}`);
    const derive = vi.spyOn(crypto.subtle, "deriveBits");
    try {
      const refused = await browser.post("/console/invitation", { token: `${token.slice(0, -4)}AAAA`, password: "correct horse battery" });
      expect(alertCode(refused.html)).toBe("INVALID_TOKEN");
      expect(derive).not.toHaveBeenCalled();
      await browser.open(`/console/invitation?token=${token}`);
      expect((await browser.post("/console/invitation", { token, password: "correct horse battery" })).status).toBe(303);
      expect(derive).toHaveBeenCalledTimes(1);
    } finally {
      derive.mockRestore();
    }
  });
});
