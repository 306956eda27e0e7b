import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addMember } from "../../worker/domain/users/members";
import { findUserByEmail } from "../../worker/domain/users/store";
import { alertCode, ConsoleBrowser } from "./console-browser";
import { bankTransaction, jobInWorkspace } from "./helpers";

describe("credentials in the console", () => {
  it("shows each credential's last successful collection, checks one again on the owner's request (once a minute), replaces and deletes one, offering members none of it", async () => {
    const owner = new ConsoleBrowser();
    const { workspaceId } = await owner.signUp();
    await jobInWorkspace(workspaceId, [[bankTransaction("a", "급여", 1000)]], [0]);
    const credentialId = (await env.DB.prepare("SELECT id FROM credentials WHERE workspace_id = ?").bind(workspaceId).first<{ id: string }>())!.id;
    const finished = (await env.DB.prepare("SELECT finished_at AS at FROM jobs WHERE workspace_id = ?").bind(workspaceId).first<{ at: number }>())!.at;
    const page = `/console/w/${workspaceId}/credentials`;

    const listed = await owner.open(page);
    expect(listed.html).toContain(`data-last-success="${finished}"`);
    const checked = await owner.post(`${page}/${credentialId}/check`, {});
    expect(checked.status).toBe(200);
    expect(checked.html).toContain("기관에 로그인해 확인하고 있습니다");
    expect(checked.html).toMatch(/data-check="(CHECKING|VALID)"/);
    // Each check is a login at the institution: a second within the minute is refused, saying when to come back.
    await owner.open(page);
    const again = await owner.post(`${page}/${credentialId}/check`, {});
    expect([again.status, alertCode(again.html)]).toEqual([429, "API_RATE_LIMITED"]);
    expect(again.html).toContain("1분에 한 번");
    expect(Number(again.response.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);

    // Replacing opens the hosted registration for that credential's method only.
    await owner.open(page);
    const replacing = await owner.post(`${page}/connect`, { replace: credentialId });
    expect(replacing.status).toBe(201);
    expect(replacing.html).toContain('id="registration"');
    const session = await env.DB.prepare("SELECT options FROM registration_sessions WHERE workspace_id = ? ORDER BY created_at DESC LIMIT 1").bind(workspaceId).first<{ options: string }>();
    expect(JSON.parse(session!.options)).toEqual([{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }]);

    const member = new ConsoleBrowser();
    const { email } = await member.signUp();
    await addMember(env.DB, { workspaceId, userId: (await findUserByEmail(env.DB, email))!.id, role: "member" });
    const seen = await member.open(page);
    expect(seen.html).not.toContain(`${page}/${credentialId}/check`);
    expect(seen.html).not.toContain(`${page}/${credentialId}/delete`);

    await owner.open(page);
    const deleted = await owner.post(`${page}/${credentialId}/delete`, {});
    expect(deleted.html).toContain("자격 증명을 삭제했습니다");
    expect(deleted.html).toContain('data-status="DELETED"');
  });
});
