import { describe, expect, it } from "vitest";
import { callJson, createWorkspace } from "./helpers";

type Json = Record<string, any>;

const SCHEMAS = [
  "bank.accounts.cb.v1", "bank.transactions.cb.v1", "taxportal.tax-invoices.sales.v1", "taxportal.tax-invoices.purchase.v1",
  "taxportal.cash-receipts.sales.v1", "taxportal.cash-receipts.purchase.v1", "card.cards.corp.v1", "card.approvals.corp.v1",
];

describe("catalog routes", () => {
  it("lists all eight schemas and serves each as JSON Schema from the zod definitions", async () => {
    const ws = await createWorkspace();
    const list = await callJson<Json>("/api/v1/schemas", { key: ws.apiKey });
    expect(list.body.items.map((s: Json) => s.id)).toEqual(SCHEMAS);
    for (const id of SCHEMAS) {
      const detail = await callJson<Json>(`/api/v1/schemas/${id}`, { key: ws.apiKey });
      expect(detail.status).toBe(200);
      expect(detail.body.record.properties.schema).toMatchObject({ const: id });
      expect(detail.body.record.required).toContain("schema");
      for (const field of Object.values(detail.body.record.properties as Record<string, Json>)) expect(field.title).toMatch(/[가-힣]/);
    }
    const tx = await callJson<Json>("/api/v1/schemas/bank.transactions.cb.v1", { key: ws.apiKey });
    expect(tx.body.params.required).toEqual(["dateRangeStart", "dateRangeEnd"]);
    expect(tx.body.params.properties.accountNumber.type).toBe("array");
    expect(tx.body.record.properties.transactionAt.format).toBe("date-time");
    expect(tx.body.record.properties.accountType.enum).toContain("FOREIGN");
    expect(tx.body.providerCodes).toContain("sandbox.bank");
    const missing = await callJson<Json>("/api/v1/schemas/nope.v1", { key: ws.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("SCHEMA_NOT_FOUND");
  });

  it("describes providers with acceptedAuthMethods and credential fields with patterns", async () => {
    const ws = await createWorkspace();
    const list = await callJson<Json>("/api/v1/providers", { key: ws.apiKey });
    expect(list.body.items.map((p: Json) => p.code)).toContain("sandbox.bank");
    const bank = await callJson<Json>("/api/v1/providers/sandbox.bank", { key: ws.apiKey });
    expect(bank.body).toMatchObject({ code: "sandbox.bank", acceptedAuthMethods: ["PROVIDER_LOGIN"], schemas: ["bank.accounts.cb.v1", "bank.transactions.cb.v1"] });
    const creds = await callJson<Json>("/api/v1/providers/sandbox.bank/credential-schema", { key: ws.apiKey });
    expect(creds.body.fields.map((f: Json) => [f.name, f.required])).toEqual([["loginId", true], ["password", true], ["secondFactor", false]]);
    for (const field of creds.body.fields) expect(() => new RegExp(field.pattern)).not.toThrow();
    expect(new RegExp(creds.body.fields[0].pattern).test("user_good")).toBe(true);
    for (const path of ["/api/v1/providers/nope", "/api/v1/providers/nope/credential-schema"]) {
      const res = await callJson<Json>(path, { key: ws.apiKey });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_PROVIDER_CODE");
    }
  });
});

describe("API keys", () => {
  it("creates, lists and revokes keys; a revoked key stops working", async () => {
    const ws = await createWorkspace();
    const created = await callJson<Json>("/api/v1/api-keys", { method: "POST", key: ws.apiKey, json: { name: "배치" } });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect((await callJson("/api/v1/schemas", { key: created.body.secret })).status).toBe(200);
    const list = await callJson<Json>("/api/v1/api-keys", { key: ws.apiKey });
    expect(list.body.items).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
    const revoke = await callJson(`/api/v1/api-keys/${created.body.id}`, { method: "DELETE", key: ws.apiKey });
    expect(revoke.status).toBe(204);
    expect((await callJson<Json>("/api/v1/schemas", { key: created.body.secret })).body.code).toBe("INVALID_TOKEN");
    const again = await callJson<Json>(`/api/v1/api-keys/${created.body.id}`, { method: "DELETE", key: ws.apiKey });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("API_KEY_ALREADY_REVOKED");
  });

  it("answers 404 API_KEY_NOT_FOUND for unknown keys and keys of other workspaces", async () => {
    const ws = await createWorkspace();
    const other = await createWorkspace();
    for (const id of [crypto.randomUUID(), other.apiKeyId]) {
      const res = await callJson<Json>(`/api/v1/api-keys/${id}`, { method: "DELETE", key: ws.apiKey });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("API_KEY_NOT_FOUND");
    }
  });
});

describe("OpenAPI document", () => {
  it("declares every route with its error envelope", async () => {
    const doc = await callJson<Json>("/api/v1/openapi.json");
    const paths = Object.keys(doc.body.paths);
    for (const path of ["/api/v1/data-jobs", "/api/v1/data-jobs/{id}", "/api/v1/data-jobs/{id}/results", "/api/v1/data-jobs/{id}/results.csv", "/api/v1/schemas", "/api/v1/schemas/{schema}", "/api/v1/providers", "/api/v1/providers/{code}", "/api/v1/providers/{code}/credential-schema", "/api/v1/api-keys", "/api/v1/api-keys/{id}"]) {
      expect(paths).toContain(path);
    }
    const create = doc.body.paths["/api/v1/data-jobs"].post;
    expect(create.requestBody.required).toBe(true);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "404", "409", "415", "429"]));
    expect(create.parameters.map((p: Json) => p.name)).toContain("Idempotency-Key");
    expect(doc.body.components.schemas.DataJob.oneOf ?? doc.body.components.schemas.DataJob.anyOf).toBeTruthy();
    expect(doc.body.components.securitySchemes.bearerAuth.scheme).toBe("bearer");
  });
});
