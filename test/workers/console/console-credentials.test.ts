import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addMember } from "../../../worker/domain/users/members";
import { findUserByEmail } from "../../../worker/domain/users/store";
import { alertCode, ConsoleBrowser } from "../../support/workers/console-browser";
import { bankTransaction, callJson, jobInWorkspace } from "../../support/workers/helpers";
import { issueApiKey } from "../../../worker/domain/api-keys/store";
import { issueJointCertificate } from "../../../sandbox/certificates/issue";

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

  it("names a certificate by its holder and expiry, says what 교체 replaces, and sends a GET of a row's form address back to the list", async () => {
    const owner = new ConsoleBrowser();
    const { workspaceId } = await owner.signUp();
    const key = await issueApiKey(env.DB, { workspaceId, name: "certificate", canManageKeys: true });
    const notAfter = new Date(Date.now() + 200 * 86_400_000);
    const issued = await issueJointCertificate({ idn: "1208800767", notAfter, commonName: "(주)샌드박스상사()0012345678901234" });
    const made = await callJson<Record<string, any>>("/api/v1/credentials", {
      method: "POST",
      key: key.secret,
      json: { providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", fields: { certificate: issued.certificate, privateKey: issued.privateKey, password: issued.password } },
    });
    expect(made.status).toBe(201);
    const page = `/console/w/${workspaceId}/credentials`;
    const row = new RegExp(`<tr id="credential-${made.body.id}"[\\s\\S]*?</tr>`).exec((await owner.open(page)).html)![0];
    const expiry = new Date(notAfter.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
    expect(row.replace(/<[^>]+>/g, "")).toContain(`인증서 (주)샌드박스상사 · ${expiry}까지`);
    expect(row).not.toContain("()0012345678901234");
    expect(row).toContain("갱신한 인증서를 다시 등록하면 이 인증서는 교체됨이 됩니다");
    expect(row).toContain(">인증서 교체<");

    for (const form of ["check", "delete"]) {
      const answer = await owner.request(`${page}/${made.body.id}/${form}`);
      expect([answer.status, answer.headers.get("Location")]).toEqual([303, page]);
    }
  });
});
