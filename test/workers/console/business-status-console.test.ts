import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { currentStatuses, STATUS_TTL_MS } from "../../../worker/domain/business-status/check";
import { saveStatuses, statusesOf } from "../../../worker/domain/business-status/store";
import { issueApiKey } from "../../../worker/domain/api-keys/store";
import { issueJointCertificate } from "../../../sandbox/certificates/issue";
import { REPLICA_BUSINESSES, UNREGISTERED_NUMBER } from "../../../sandbox/nts-business-status/ground-truth";
import { withCheckDigit } from "../../../contracts/business-number";
import { ConsoleBrowser } from "../../support/workers/console-browser";
import { callJson } from "../../support/workers/helpers";

type Json = Record<string, any>;
const [active, , suspended, closed] = REPLICA_BUSINESSES;

/**
 * A console owner whose workspace is of `businessNumber` (sign-up names the sandbox's business; this test names
 * another), their e-mail confirmed unless `confirmed` is false: NTS is a real institution.
 */
async function ownerOf(businessNumber: string, confirmed = true) {
  const owner = new ConsoleBrowser();
  const { email, workspaceId } = await owner.signUp();
  await env.DB.prepare("UPDATE workspaces SET business_number = ? WHERE id = ?").bind(businessNumber, workspaceId).run();
  if (confirmed) await owner.verifyEmail(email);
  return { owner, workspaceId };
}

describe("the service checks businesses' registration status with NTS", () => {
  it("says on the overview that the workspace's business is closed, asks NTS once a day, and says nothing of an active one", async () => {
    const { owner, workspaceId } = await ownerOf(closed!.b_no);
    const page = await owner.open(`/console/w/${workspaceId}/overview`);
    expect(page.html).toMatch(/id="business-status" data-status-code="03">사업자등록번호 \d{3}-\d{2}-\d{5}: 국세청에 폐업한 사업자로 나옵니다 \(폐업일 2025-03-31\)/);
    const kept = (await statusesOf(env.DB, [closed!.b_no])).get(closed!.b_no)!;
    expect(kept).toMatchObject({ registered: true, statusCode: "03", closureDate: "2025-03-31" });

    // Within the day the kept answer serves; past it, NTS is asked again.
    await owner.open(`/console/w/${workspaceId}/overview`);
    expect((await statusesOf(env.DB, [closed!.b_no])).get(closed!.b_no)!.checkedAt).toBe(kept.checkedAt);
    await saveStatuses(env.DB, [{ ...kept, checkedAt: Date.now() - STATUS_TTL_MS - 1 }]);
    await owner.open(`/console/w/${workspaceId}/overview`);
    expect((await statusesOf(env.DB, [closed!.b_no])).get(closed!.b_no)!.checkedAt).toBeGreaterThan(Date.now() - 60_000);

    const fine = await ownerOf(active!.b_no);
    expect((await fine.owner.open(`/console/w/${fine.workspaceId}/overview`)).html).not.toContain('id="business-status"');
    const unknown = await ownerOf(UNREGISTERED_NUMBER);
    expect((await unknown.owner.open(`/console/w/${unknown.workspaceId}/overview`)).html).toContain("국세청에 등록되지 않은 사업자등록번호입니다.");
  });

  it("marks a live certificate whose business is suspended on the credentials page", async () => {
    const { owner, workspaceId } = await ownerOf(suspended!.b_no);
    const key = (await issueApiKey(env.DB, { workspaceId, name: "인증서", canManageKeys: true })).secret;
    const { certificate, privateKey, password } = await issueJointCertificate({ idn: suspended!.b_no });
    const made = await callJson<Json>("/api/v1/credentials", { method: "POST", key, json: { providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", fields: { certificate, privateKey, password } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const page = await owner.open(`/console/w/${workspaceId}/credentials`);
    expect(page.html).toMatch(new RegExp(`data-credential-id="${made.body.id}".*?data-badge="business-status" title="국세청에 휴업 중인 사업자로 나옵니다.">\\s*휴업`, "s"));
  });

  it("asks nothing where the deployment holds no NTS key", async () => {
    const number = REPLICA_BUSINESSES[4]!.b_no;
    const { workspaceId } = await ownerOf(number);
    expect((await currentStatuses({ ...env, NTS_SERVICE_KEY: undefined }, workspaceId, [number])).size).toBe(0);
    expect((await statusesOf(env.DB, [number])).size).toBe(0);
  });

  it("asks nothing for a workspace whose owner has not confirmed their e-mail: the deployment's NTS key is a real institution's", async () => {
    // A number no other test asks of NTS.
    const number = withCheckDigit("617812345");
    const { owner, workspaceId } = await ownerOf(number, false);
    expect((await owner.open(`/console/w/${workspaceId}/overview`)).status).toBe(200);
    expect((await owner.open(`/console/w/${workspaceId}/credentials`)).status).toBe(200);
    expect((await statusesOf(env.DB, [number])).size).toBe(0);
  });
});
