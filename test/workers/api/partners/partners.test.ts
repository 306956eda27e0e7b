import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { credentialLock } from "../../../../worker/domain/pipeline/credential-lock";
import { readJob } from "../../../../worker/domain/jobs/board";
import { createJob } from "../../../../worker/domain/jobs/create";
import { isValidBusinessNumber, withCheckDigit } from "../../../../contracts/business-number";
import { addCredential, callJson, createWorkspace, type TestWorkspace, TX_JOB, withCapturedQueue } from "../../../support/workers/helpers";
import { encryptForService, hostedUiHeaders } from "../../../support/workers/registration-envelope";
import { SIMPLE_AUTH_PEOPLE } from "../../../../sandbox/hometax/simple-auth-people";
import { issueJointCertificate } from "../../../../sandbox/certificates/issue";
import { asPartner, connectBusinesses, connectionTo, partnerWithConnection } from "../../../support/workers/partner-helpers";

type Json = Record<string, any>;
const BIZ_A = "1208800767";
const BIZ_B = "2208162517";
const LOGIN = { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } };

/** A valid business number nobody else in the database uses. */
function freshBusinessNumber(): string {
  return withCheckDigit(String(Math.floor(Math.random() * 1e9)).padStart(9, "0"));
}

const SESSION = { registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }], originAllowlist: ["https://partner.example"] };

const revoke = (partner: TestWorkspace, connectionId: string) => callJson<Json>(`/api/v1/connections/${connectionId}`, { method: "DELETE", key: partner.apiKey });

describe("business registration numbers", () => {
  it("accepts valid check digits and rejects others", () => {
    expect(isValidBusinessNumber(BIZ_A)).toBe(true);
    expect(isValidBusinessNumber(BIZ_B)).toBe(true);
    expect(isValidBusinessNumber("1208800768")).toBe(false);
    expect(isValidBusinessNumber("12088007")).toBe(false);
  });
});

describe("partners acting for businesses", () => {
  it("requires X-SVC-Business on business-scoped routes", async () => {
    const partner = await partnerWithConnection(BIZ_A);
    for (const path of ["/api/v1/data-jobs", "/api/v1/credentials"]) {
      const res = await callJson<Json>(path, asPartner(partner.apiKey));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("PARTNER_BUSINESS_SELECTOR_REQUIRED");
    }
    expect((await callJson("/api/v1/schemas", asPartner(partner.apiKey))).status).toBe(200);
  });

  it("validates the selected business and its connection", async () => {
    const partner = await partnerWithConnection(BIZ_A);
    expect((await callJson<Json>("/api/v1/data-jobs", asPartner(partner.apiKey, "1208800768"))).body.code).toBe("INVALID_BUSINESS_REGISTRATION_NUMBER");
    expect((await callJson<Json>("/api/v1/data-jobs", asPartner(partner.apiKey, BIZ_B))).body).toMatchObject({ code: "CONNECTION_NOT_FOUND" });
    const ok = await callJson<Json>("/api/v1/data-jobs", asPartner(partner.apiKey, "120-88-00767"));
    expect(ok.body).toMatchObject({ items: [] });
  });

  it("keeps each business's credentials and jobs apart, and away from the partner itself", async () => {
    const partner = await partnerWithConnection(BIZ_A, BIZ_B);
    await addCredential((await connectionTo(partner, BIZ_A)).workspaceId);
    // Captured plan message: whose the job is shows at its creation, and it need not log in behind the test.
    const jobA = await callJson<Json>("/api/v1/data-jobs", { method: "POST", json: TX_JOB, ...asPartner(partner.apiKey, BIZ_A), env: withCapturedQueue().env });
    const jobB = await callJson<Json>("/api/v1/data-jobs", { method: "POST", json: TX_JOB, ...asPartner(partner.apiKey, BIZ_B) });
    expect(jobA.body.kind).toBe("InProgress");
    expect(jobB.body).toMatchObject({ kind: "Failed", error: { code: "CREDENTIAL_NOT_FOUND" } });
    expect((await callJson<Json>(`/api/v1/data-jobs/${jobA.body.id}`, asPartner(partner.apiKey, BIZ_B))).body.code).toBe("DATA_JOB_NOT_FOUND");
    const listB = await callJson<Json>("/api/v1/data-jobs", asPartner(partner.apiKey, BIZ_B));
    expect(listB.body.items.map((j: Json) => j.id)).toEqual([jobB.body.id]);
    expect((await callJson<Json>("/api/v1/credentials", asPartner(partner.apiKey, BIZ_B))).body.items).toEqual([]);
  });

  it("issues registration sessions with the selected business's number", async () => {
    const partner = await partnerWithConnection(BIZ_B);
    const res = await callJson<Json>("/api/v1/registration-sessions", {
      method: "POST",
      json: { registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }], originAllowlist: ["https://partner.example"] },
      ...asPartner(partner.apiKey, BIZ_B),
    });
    expect(res.status).toBe(201);
    const { env } = await import("cloudflare:workers");
    const row = await env.DB.prepare("SELECT business_number FROM registration_sessions WHERE id = ?").bind(res.body.sessionId).first<{ business_number: string }>();
    expect(row!.business_number).toBe(BIZ_B);
  });

  it("revokes a connection: the business is then CONNECTION_REVOKED and its credentials are gone", async () => {
    const partner = await partnerWithConnection(BIZ_A);
    const connection = await connectionTo(partner, BIZ_A);
    await addCredential(connection.workspaceId);
    const revoked = await revoke(partner, connection.id);
    expect(revoked.body).toMatchObject({ status: "REVOKED", businessNumber: BIZ_A });
    expect((await callJson<Json>("/api/v1/data-jobs", asPartner(partner.apiKey, BIZ_A))).body.code).toBe("CONNECTION_REVOKED");
    expect((await revoke(partner, connection.id)).body.code).toBe("CONNECTION_REVOKED");
    const again = await callJson<Json>("/api/v1/connections", { method: "POST", key: partner.apiKey, json: { businessNumber: BIZ_A } });
    expect(again.status).toBe(201);
    expect((await callJson<Json>("/api/v1/credentials", asPartner(partner.apiKey, BIZ_A))).body.items).toEqual([]);
  });

  it("erases the sealed secrets of a revoked connection's credentials, keeping what an audit needs", async () => {
    const partner = await partnerWithConnection(BIZ_A);
    const connection = await connectionTo(partner, BIZ_A);
    const credentialId = await addCredential(connection.workspaceId);
    await revoke(partner, connection.id);
    const row = await env.DB.prepare("SELECT * FROM credentials WHERE id = ?").bind(credentialId).first<Json>();
    expect(row).toMatchObject({ id: credentialId, workspace_id: connection.workspaceId, provider_code: "sandbox.bank", auth_method: "PROVIDER_LOGIN", status: "DELETED", sealed: null });
    expect(row!.created_at).toBeGreaterThan(0);
    expect(row!.deleted_at).toBeGreaterThanOrEqual(row!.created_at);
  });

  it("ends the business's pending registration sessions and unfinished jobs with the revocation, freeing their credential leases", async () => {
    const partner = await partnerWithConnection(BIZ_A);
    const connection = await connectionTo(partner, BIZ_A);
    const issued = await callJson<Json>("/api/v1/registration-sessions", { method: "POST", json: SESSION, ...asPartner(partner.apiKey, BIZ_A) });
    const token = issued.body.sessionToken;
    expect((await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(token) })).status).toBe(200);
    // Born Failed: there is no credential yet.
    const finished = await createJob(withCapturedQueue().env, connection.workspaceId, TX_JOB);
    expect(finished.status).toBe("FAILED");
    const credentialId = await addCredential(connection.workspaceId);
    // Left PENDING (its planning message is captured, not run), and holding its credential's lease as a running delivery would.
    const job = await createJob(withCapturedQueue().env, connection.workspaceId, TX_JOB);
    const lock = credentialLock(env, credentialId);
    expect((await lock.acquire(job.id, 60_000)).granted).toBe(true);

    expect((await revoke(partner, connection.id)).status).toBe(200);

    const session = await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(token) });
    expect(session.status).toBe(410);
    expect(session.body.code).toBe("REGISTRATION_SESSION_ALREADY_CANCELLED");
    expect(await readJob(env, connection.workspaceId, job.id)).toMatchObject({ status: "FAILED", error: { category: "CREDENTIAL_MISSING", code: "CREDENTIAL_NOT_FOUND" } });
    expect(await lock.holds(job.id)).toBe(false);
    // A job that had already ended keeps its own outcome.
    expect((await readJob(env, connection.workspaceId, finished.id))!.updatedAt).toBe(finished.updatedAt);
  });

  it("drops the sealed login a cancelled session held for the institution's answer with the revocation", async () => {
    const person = SIMPLE_AUTH_PEOPLE[6]!;
    const partner = await partnerWithConnection(person.businessNumber);
    const connection = await connectionTo(partner, person.businessNumber);
    const issued = await callJson<Json>("/api/v1/registration-sessions", { method: "POST", json: { ...SESSION, registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "hometax" }] }, ...asPartner(partner.apiKey, person.businessNumber) });
    const token = issued.body.sessionToken;
    const page = (await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(token) })).body;
    const envelope = await encryptForService(page.encryptionKey, page.sessionId, { provider: "kakao", name: person.name, birthDate: person.birthDate, phone: person.phone });
    const waiting = await callJson<Json>("/connect/api/registrations", { method: "POST", headers: hostedUiHeaders(token), json: { kind: "PROVIDER_LOGIN", providerCode: "hometax", authMethod: "SIMPLE_AUTH", envelope } });
    expect(waiting.body.state, JSON.stringify(waiting.body)).toBe("AWAITING_HOLDER");
    const held = () => env.DB.prepare("SELECT status, pending_login AS pending FROM registration_sessions WHERE id = ?").bind(page.sessionId).first<Json>();
    expect((await held())!.pending).toContain('"sealed"');

    expect((await revoke(partner, connection.id)).status).toBe(200);

    // The login waiting for the phone was sealed for a credential the revocation says is gone: nothing of it is left.
    expect(await held()).toEqual({ status: "CANCELLED", pending: null });
    await fetch(`${env.SANDBOX_BASE_URL}/_sandbox/hometax/phone/deny`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: person.name }) });
  });

  it("refuses partners' direct credential registration with 410 PARTNER_CREDENTIAL_API_UNSUPPORTED and stores nothing", async () => {
    const partner = await partnerWithConnection(BIZ_A);
    const res = await callJson<Json>("/api/v1/credentials", { method: "POST", json: LOGIN, ...asPartner(partner.apiKey, BIZ_A) });
    expect(res.status).toBe(410);
    expect(res.body.code).toBe("PARTNER_CREDENTIAL_API_UNSUPPORTED");
    expect(res.body.message).toMatch(/[가-힣]/);
    expect(JSON.stringify(res.body)).not.toContain("pass_good");
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM credentials WHERE workspace_id = ?").bind((await connectionTo(partner, BIZ_A)).workspaceId).first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  it("counts the jobs of all a partner's businesses against the partner's monthly cap", async () => {
    const partner = await createWorkspace({ isPartner: true, monthlyJobCap: 2 });
    await connectBusinesses(partner, BIZ_A, BIZ_B);
    const create = (business: string) => callJson<Json>("/api/v1/data-jobs", { method: "POST", json: TX_JOB, ...asPartner(partner.apiKey, business) });
    expect((await create(BIZ_A)).status).toBe(201);
    expect((await create(BIZ_B)).status).toBe(201);
    for (const business of [BIZ_A, BIZ_B]) {
      const capped = await create(business);
      expect(capped.status).toBe(429);
      expect(capped.body.code).toBe("FREE_PLAN_JOB_CAP_REACHED");
    }
  });

  it("answers an existing connection with 200 and concurrent connects with one connection", async () => {
    const partner = await createWorkspace({ isPartner: true });
    const results = await Promise.all(Array.from({ length: 5 }, () => callJson<Json>("/api/v1/connections", { method: "POST", key: partner.apiKey, json: { businessNumber: BIZ_A } })));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
  });
});

describe("non-partner workspaces", () => {
  it("may neither select a business nor manage connections", async () => {
    const ws = await createWorkspace();
    const selected = await callJson<Json>("/api/v1/data-jobs", { key: ws.apiKey, headers: { "X-SVC-Business": BIZ_A } });
    expect(selected.status).toBe(400);
    expect(selected.body.code).toBe("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER");
    for (const [method, path, json] of [["GET", "/api/v1/connections", undefined], ["POST", "/api/v1/connections", { businessNumber: BIZ_A }]] as const) {
      const res = await callJson<Json>(path, { method, key: ws.apiKey, json });
      expect(res.body.code).toBe("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER");
    }
  });

  it("rejects a malformed business number when connecting", async () => {
    const partner = await createWorkspace({ isPartner: true });
    const res = await callJson<Json>("/api/v1/connections", { method: "POST", key: partner.apiKey, json: { businessNumber: "12-34" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_BUSINESS_REGISTRATION_NUMBER");
  });

});

describe("partners naming themselves and finding their connections", () => {
  it("names itself within the rules, and businesses see that name on the registration page", async () => {
    const partner = await partnerWithConnection(BIZ_A);
    const profile = (json: Json) => callJson<Json>("/api/v1/partner-profile", { method: "PATCH", key: partner.apiKey, json });
    for (const name of ["x", "a".repeat(51), "12345", "경리나라 www.evil.kr", "https://evil", "이름<script>"]) {
      const res = await profile({ name });
      expect([name, res.status, res.body.code, res.body.fieldErrors?.[0]?.field]).toEqual([name, 400, "PARTNER_NAME_INVALID", "body.name"]);
    }
    expect((await profile({ name: "  (주)경리나라   세무  " })).body).toEqual({ id: partner.workspaceId, name: "(주)경리나라 세무" });
    expect((await callJson<Json>("/api/v1/partner-profile", { key: partner.apiKey })).body.name).toBe("(주)경리나라 세무");
    const own = await createWorkspace();
    expect((await callJson<Json>("/api/v1/partner-profile", { key: own.apiKey })).body.code).toBe("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER");

    const session = await callJson<Json>("/api/v1/registration-sessions", { method: "POST", json: SESSION, ...asPartner(partner.apiKey, BIZ_A) });
    const page = await callJson<Json>("/connect/api/session", { headers: new Headers(hostedUiHeaders(session.body.sessionToken)) });
    expect(page.body.partnerName).toBe("(주)경리나라 세무");
  });

  it("looks its connections up by business", async () => {
    const partner = await partnerWithConnection(BIZ_A, BIZ_B);
    const found = await callJson<Json>("/api/v1/connections?businessNumber=220-81-62517", { key: partner.apiKey });
    expect(found.body.items.map((c: Json) => c.businessNumber)).toEqual([BIZ_B]);
    expect((await callJson<Json>("/api/v1/connections?businessNumber=1208800768", { key: partner.apiKey })).body.code).toBe("INVALID_BUSINESS_REGISTRATION_NUMBER");
  });
});

describe("a business and the partners acting for it", () => {
  it("sees them once it proves it is the business with its certificate, and cuts one off", async () => {
    // A business of its own: other tests' partners act for BIZ_A in the same database.
    const bizno = freshBusinessNumber();
    const partner = await partnerWithConnection(bizno);
    await callJson("/api/v1/partner-profile", { method: "PATCH", key: partner.apiKey, json: { name: "경리나라" } });
    const other = await partnerWithConnection(BIZ_B);
    const business = await createWorkspace({ businessNumber: bizno });
    const list = () => callJson<Json>("/api/v1/partners", { key: business.apiKey });
    // A business number typed at sign-up proves nothing.
    expect([(await list()).status, (await list()).body.code]).toEqual([403, "WORKSPACE_ACCESS_DENIED"]);
    const files = await issueJointCertificate({ idn: bizno });
    const cert = await callJson<Json>("/api/v1/credentials", { method: "POST", key: business.apiKey, json: { providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", fields: { certificate: files.certificate, privateKey: files.privateKey, password: files.password } } });
    expect(cert.status).toBe(201);

    const connection = await connectionTo(partner, bizno);
    expect((await list()).body.items).toEqual([{ id: partner.workspaceId, name: "경리나라", connectionId: connection.id, connectedAt: expect.any(String) }]);
    expect((await callJson<Json>(`/api/v1/partners/${partner.workspaceId}`, { key: business.apiKey })).body.connectionId).toBe(connection.id);
    for (const id of [other.workspaceId, crypto.randomUUID()]) {
      const res = await callJson<Json>(`/api/v1/partners/${id}`, { key: business.apiKey });
      expect([res.status, res.body.code]).toEqual([404, "PARTNER_NOT_FOUND"]);
    }

    await addCredential(connection.workspaceId);
    expect((await callJson(`/api/v1/partners/${partner.workspaceId}`, { method: "DELETE", key: business.apiKey })).status).toBe(204);
    expect((await callJson<Json>("/api/v1/data-jobs", asPartner(partner.apiKey, bizno))).body.code).toBe("CONNECTION_REVOKED");
    expect((await list()).body.items).toEqual([]);
    expect((await callJson<Json>(`/api/v1/partners/${partner.workspaceId}`, { method: "DELETE", key: business.apiKey })).body.code).toBe("PARTNER_NOT_FOUND");
    // The business's own certificate is its own: only what the partner held for it is gone.
    expect((await callJson<Json>(`/api/v1/credentials/${cert.body.id}`, { key: business.apiKey })).body.status).toBe("ACTIVE");
  });
});

