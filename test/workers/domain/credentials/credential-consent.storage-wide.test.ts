// start-order: last (why: it warns of every credential's end, and leaves a consent that has ended for the warnings of any file after it)
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson, createWorkspace, receivedAtLeast, receiverHook, TX_JOB } from "../../../support/workers/helpers";
import { asPartner } from "../../../support/workers/partner-helpers";
import { BUSINESS, credentialRow, heldCredential, issueSession, namedPartner, PARTNER_NAME, submitLogin } from "../../../support/workers/consent-helpers";
import { hostedUiHeaders } from "../../../support/workers/registration-envelope";
import { CONSENT_TEXTS, CURRENT_CONSENT_TEXT_VERSION } from "../../../../worker/domain/credentials/consent-text";
import { setConsentDays } from "../../../../worker/domain/workspaces/store";
import { warnExpiringCertificates } from "../../../../worker/domain/credentials/expiry-warnings";
import { verifyWebhook, type WebhookEvent } from "../../../../client/src/webhooks";

type Json = Record<string, any>;
const DAY = 86_400_000;

/**
 * Moves a credential's consent end, as the days passing would. A create keeps what it read of the credential (its end
 * included) until the workspace's revision moves, which a real end never needs (the clock is checked at each create);
 * writing `sealed` as it is moves the revision, as any change of the record in the service does.
 */
const endConsentAt = (id: string, at: number) =>
  env.DB.prepare("UPDATE credentials SET consent_record = json_set(consent_record, '$.expiresAt', ?), sealed = sealed WHERE id = ?").bind(new Date(at).toISOString(), id).run();

const jobs = (workspaceId: string) => env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE workspace_id = ?").bind(workspaceId).first<{ n: number }>();

describe("the consent a credential's holder gave", () => {
  it("is recorded from the hosted page: when, for whom (the workspace and the partner that asked), what, for which purpose, under which text, until when", async () => {
    const { partner, business } = await namedPartner();
    const issued = await issueSession(partner, { registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank", schemas: ["bank.transactions.cb.v1"] }] });
    const page = (await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(issued.body.sessionToken) })).body;
    expect(page.consentText).toMatchObject({ version: CURRENT_CONSENT_TEXT_VERSION, days: 365 });
    expect(page.consentText.paragraphs.join(" ")).toContain(`${PARTNER_NAME}이(가)`);
    expect(page.consentText.paragraphs.join(" ")).toContain("365일");

    // A page naming a text the service never had is refused, and stores nothing.
    const unknown = await submitLogin(issued.body.sessionToken, "user_good", { consentTextVersion: "1999-01-01" });
    expect([unknown.submitted.status, unknown.submitted.body.code]).toEqual([400, "INVALID_PARAM_FORMAT"]);
    expect(unknown.submitted.body.fieldErrors[0].field).toBe("body.consentTextVersion");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM credentials WHERE workspace_id = ?").bind(business.workspaceId).first("n")).toBe(0);

    const before = Date.now();
    const { submitted } = await submitLogin(issued.body.sessionToken);
    expect(submitted.status).toBe(201);
    const { credentialId } = (await callJson<Json>(`/api/v1/registration-sessions/${issued.body.sessionId}`, asPartner(partner.apiKey, BUSINESS))).body;
    const shown = (await callJson<Json>(`/api/v1/credentials/${credentialId}`, asPartner(partner.apiKey, BUSINESS))).body;
    expect(shown.consentRecord).toEqual({
      givenAt: expect.any(String),
      expiresAt: expect.any(String),
      withdrawnAt: null,
      onBehalfOf: { workspaceId: business.workspaceId, workspaceName: expect.any(String), partner: { id: partner.workspaceId, name: PARTNER_NAME } },
      providerCodes: ["sandbox.bank"],
      schemas: ["bank.transactions.cb.v1"],
      purpose: CONSENT_TEXTS[CURRENT_CONSENT_TEXT_VERSION]!.purpose,
      textVersion: CURRENT_CONSENT_TEXT_VERSION,
    });
    const givenAt = Date.parse(shown.consentRecord.givenAt);
    expect(givenAt).toBeGreaterThanOrEqual(before);
    expect(Date.parse(shown.consentRecord.expiresAt) - givenAt).toBe(365 * DAY);
    // The list shows the same record.
    const listed = (await callJson<Json>("/api/v1/credentials", asPartner(partner.apiKey, BUSINESS))).body.items.find((c: Json) => c.id === credentialId);
    expect(listed.consentRecord).toEqual(shown.consentRecord);
  });

  it("lasts the workspace's period, at most a year; a credential the workspace registers itself records no text", async () => {
    const ws = await createWorkspace();
    await setConsentDays(env.DB, ws.workspaceId, 30);
    const own = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } } });
    expect(own.status).toBe(201);
    const record = own.body.consentRecord;
    expect(record).toMatchObject({ textVersion: null, onBehalfOf: { workspaceId: ws.workspaceId, partner: null }, providerCodes: ["sandbox.bank"], schemas: ["bank.accounts.cb.v1", "bank.transactions.cb.v1"] });
    expect(Date.parse(record.expiresAt) - Date.parse(record.givenAt)).toBe(30 * DAY);

    // A setting past a year is held to a year.
    await setConsentDays(env.DB, ws.workspaceId, 5000);
    const again = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_other", password: "pass_good" } } });
    expect(Date.parse(again.body.consentRecord.expiresAt) - Date.parse(again.body.consentRecord.givenAt)).toBe(365 * DAY);
  });

  it("refuses a job past the consent's end with 409 CREDENTIAL_EXPIRED and one outside its schemas with 422 CREDENTIAL_SCOPE_NOT_SUPPORTED, storing nothing", async () => {
    const { partner, business } = await namedPartner();
    const credential = await heldCredential(partner);
    const create = (json: Json) => callJson<Json>("/api/v1/data-jobs", { method: "POST", json: { ...json, credentialId: credential.id }, ...asPartner(partner.apiKey, BUSINESS) });

    const outside = await create({ ...TX_JOB, schema: "bank.accounts.cb.v1", params: {} });
    expect([outside.status, outside.body.code]).toEqual([422, "CREDENTIAL_SCOPE_NOT_SUPPORTED"]);

    await endConsentAt(credential.id, Date.now() - 1000);
    const ended = await create(TX_JOB);
    expect([ended.status, ended.body.code]).toEqual([409, "CREDENTIAL_EXPIRED"]);
    expect(ended.body.message).toContain("동의");
    expect(ended.body.fieldErrors).toEqual([expect.objectContaining({ field: "body.credentialId", code: "CREDENTIAL_EXPIRED" })]);
    // Without naming it, the default credential is refused the same way.
    const byDefault = await callJson<Json>("/api/v1/data-jobs", { method: "POST", json: TX_JOB, ...asPartner(partner.apiKey, BUSINESS) });
    expect(byDefault.body.code).toBe("CREDENTIAL_EXPIRED");
    expect((await jobs(business.workspaceId))!.n).toBe(0);
  });

  it("announces the consent's end 30, 7 and 1 days ahead as credential.expiring, and a recovery session renews it", async () => {
    const { partner } = await namedPartner();
    // The partner's setting: its product asks for the consent (the business's own would apply to its own registrations).
    await setConsentDays(env.DB, partner.workspaceId, 20);
    const hook = receiverHook();
    const endpoint = await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: partner.apiKey, json: { url: hook.url, events: ["credential.expiring"] } });
    const credential = await heldCredential(partner);
    const end = Date.parse(credential.consentRecord.expiresAt);
    expect(end - Date.parse(credential.consentRecord.givenAt)).toBe(20 * DAY);

    for (const at of [Date.now(), end - 6.5 * DAY, end - 0.5 * DAY]) await warnExpiringCertificates(env, at);
    await receivedAtLeast(hook, 3);
    await new Promise((r) => setTimeout(r, 300));
    const events = await Promise.all((await hook.received()).map((r) => verifyWebhook<WebhookEvent<Json>>(r.body, r.headers["x-svc-signature"], endpoint.body.secret)));
    const ours = events.filter((e) => e.data.object.id === credential.id);
    expect(ours.map((e) => [e.type, e.data.object.consentRecord.expiresAt])).toEqual([0, 1, 2].map(() => ["credential.expiring", credential.consentRecord.expiresAt]));
    expect((await credentialRow(credential.id))!.expiry_warned_days).toBe(1);

    // The holder consents again through a recovery session: the same login renews the record, under the longer period set since.
    await setConsentDays(env.DB, partner.workspaceId, 90);
    const recovery = await issueSession(partner, { recoverCredentialId: credential.id });
    expect(recovery.status).toBe(201);
    const before = Date.now();
    expect((await submitLogin(recovery.body.sessionToken)).submitted.status).toBe(201);
    const renewed = (await callJson<Json>(`/api/v1/credentials/${credential.id}`, asPartner(partner.apiKey, BUSINESS))).body.consentRecord;
    expect(Date.parse(renewed.givenAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(renewed.expiresAt) - Date.parse(renewed.givenAt)).toBe(90 * DAY);
    expect((await credentialRow(credential.id))!.expiry_warned_days).toBeNull();
    const job = await callJson<Json>("/api/v1/data-jobs", { method: "POST", json: { ...TX_JOB, credentialId: credential.id }, ...asPartner(partner.apiKey, BUSINESS) });
    expect(job.status).toBe(201);
  });
});
