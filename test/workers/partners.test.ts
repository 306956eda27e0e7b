import { describe, expect, it } from "vitest";
import { isValidBusinessNumber } from "../../worker/partners/business-number";
import { callJson, createWorkspace, TX_JOB } from "./helpers";

type Json = Record<string, any>;
const BIZ_A = "1208800767";
const BIZ_B = "2208162517";
const LOGIN = { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } };

const asPartner = (key: string, business?: string) => ({ key, headers: business === undefined ? new Headers() : new Headers({ "X-SVC-Business": business }) });

async function partnerWithConnection(...businesses: string[]) {
  const partner = await createWorkspace({ isPartner: true });
  for (const businessNumber of businesses) {
    const res = await callJson<Json>("/api/v1/connections", { method: "POST", key: partner.apiKey, json: { businessNumber } });
    expect(res.status).toBe(201);
  }
  return partner;
}

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
    const cred = await callJson<Json>("/api/v1/credentials", { method: "POST", json: LOGIN, ...asPartner(partner.apiKey, BIZ_A) });
    expect(cred.status).toBe(201);
    const jobA = await callJson<Json>("/api/v1/data-jobs", { method: "POST", json: TX_JOB, ...asPartner(partner.apiKey, BIZ_A) });
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
    await callJson("/api/v1/credentials", { method: "POST", json: LOGIN, ...asPartner(partner.apiKey, BIZ_A) });
    const [connection] = (await callJson<Json>("/api/v1/connections", { key: partner.apiKey })).body.items;
    const revoked = await callJson<Json>(`/api/v1/connections/${connection.id}`, { method: "DELETE", key: partner.apiKey });
    expect(revoked.body).toMatchObject({ status: "REVOKED", businessNumber: BIZ_A });
    expect((await callJson<Json>("/api/v1/data-jobs", asPartner(partner.apiKey, BIZ_A))).body.code).toBe("CONNECTION_REVOKED");
    expect((await callJson<Json>(`/api/v1/connections/${connection.id}`, { method: "DELETE", key: partner.apiKey })).body.code).toBe("CONNECTION_REVOKED");
    const again = await callJson<Json>("/api/v1/connections", { method: "POST", key: partner.apiKey, json: { businessNumber: BIZ_A } });
    expect(again.status).toBe(201);
    expect((await callJson<Json>("/api/v1/credentials", asPartner(partner.apiKey, BIZ_A))).body.items).toEqual([]);
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
