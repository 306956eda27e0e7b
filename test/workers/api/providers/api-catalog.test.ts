import { describe, expect, it } from "vitest";
import { createApp } from "../../../../worker/app";
import { API_ERROR_CODES, type ApiErrorCode, catalogEntry } from "../../../../worker/platform/errors/codes";
import { callJson, createWorkspace } from "../../../support/workers/helpers";
import { documentedErrors, type OperationObject, operationName, operationsOf, resolve, servedDocument } from "../../../support/workers/openapi-document";

type Json = Record<string, any>;

/** Routes that serve the document itself rather than an operation of it. */
const DOCUMENTATION_ROUTES = new Set(["GET /api/v1/openapi.json", "GET /api/v1/docs", "GET /api/v1/docs/assets/scalar.js", "GET /api/v1/docs/assets/start.js"]);

/** Without parameters, a body or authentication a request cannot be wrong, so there is no client error to document. */
const takesInput = (op: OperationObject) => Boolean(op.parameters?.length) || op.requestBody !== undefined || op.security?.length !== 0;

const SCHEMAS = [
  "bank.accounts.cb.v1", "bank.transactions.cb.v1", "taxportal.tax-invoices.sales.v1", "taxportal.tax-invoices.purchase.v1",
  "taxportal.cash-receipts.sales.v1", "taxportal.cash-receipts.purchase.v1", "taxportal.tax-invoice-lines.v1", "taxportal.business-card-purchases.v1",
  "business.status.v1", "card.cards.corp.v1", "card.approvals.corp.v1",
];

describe("catalog routes", () => {
  it("lists all eleven schemas and serves each as JSON Schema from the zod definitions", async () => {
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
    const status = await callJson<Json>("/api/v1/schemas/business.status.v1", { key: ws.apiKey });
    expect(status.body.params.required).toEqual(["businessNumbers"]);
    expect(status.body.params.properties.businessNumbers).toMatchObject({ type: "array", minItems: 1, maxItems: 1000 });
    const tx = await callJson<Json>("/api/v1/schemas/bank.transactions.cb.v1", { key: ws.apiKey });
    expect(tx.body.params.required).toEqual(["dateRangeStart", "dateRangeEnd"]);
    expect(tx.body.params.properties.accountNumber.type).toBe("array");
    expect(tx.body.record.properties.transactionAt.format).toBe("date-time");
    expect(tx.body.record.properties.accountType.enum).toContain("FOREIGN");
    expect(tx.body.providerCodes).toContain("sandbox.bank");
    // The extension schemas: whole won as int64 integers, the line's side as an enum, offered by both tax portals.
    const lines = await callJson<Json>("/api/v1/schemas/taxportal.tax-invoice-lines.v1", { key: ws.apiKey });
    expect(lines.body.params.required).toEqual(["dateRangeStart", "dateRangeEnd"]);
    expect(lines.body.record.properties.supplyAmount).toMatchObject({ type: "integer", format: "int64", title: "공급가액" });
    expect(lines.body.record.properties.side.enum).toEqual(["SALES", "PURCHASE"]);
    expect(lines.body.providerCodes).toEqual(expect.arrayContaining(["sandbox.taxportal", "hometax"]));
    const cards = await callJson<Json>("/api/v1/schemas/taxportal.business-card-purchases.v1", { key: ws.apiKey });
    expect(cards.body.record.required).toEqual(expect.arrayContaining(["transactionIdentifier", "transactionDate", "cardNumberMasked", "supplyAmount", "taxAmount", "totalAmount", "tip"]));
    expect(cards.body.providerCodes).toEqual(expect.arrayContaining(["sandbox.taxportal", "hometax"]));
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
    const card = await callJson<Json>("/api/v1/providers/sandbox.card", { key: ws.apiKey });
    expect(card.body).toMatchObject({ kind: "CARD", acceptedAuthMethods: ["PROVIDER_LOGIN", "CERTIFICATE"], schemas: ["card.cards.corp.v1", "card.approvals.corp.v1"] });
    // The issuer asks an ID login for nothing more than the ID and the password.
    const cardCreds = await callJson<Json>("/api/v1/providers/sandbox.card/credential-schema", { key: ws.apiKey });
    expect(cardCreds.body.fields.filter((f: Json) => f.authMethod === "PROVIDER_LOGIN").map((f: Json) => [f.name, f.required])).toEqual([["loginId", true], ["password", true]]);
    // and a business certificate, as files.
    expect(cardCreds.body.fields.filter((f: Json) => f.authMethod === "CERTIFICATE").map((f: Json) => [f.name, f.input])).toEqual([["certificate", "file"], ["privateKey", "file"], ["password", "text"]]);
    // The tax portal takes its certificate login and its ID login, whose second factor is optional to register.
    const taxPortal = await callJson<Json>("/api/v1/providers/sandbox.taxportal/credential-schema", { key: ws.apiKey });
    expect(taxPortal.body.acceptedAuthMethods).toEqual(["CERTIFICATE", "PROVIDER_LOGIN"]);
    expect(taxPortal.body.fields.filter((f: Json) => f.authMethod === "PROVIDER_LOGIN").map((f: Json) => [f.name, f.required, f.secret])).toEqual([["loginId", true, false], ["password", true, true], ["secondFactor", false, true]]);
    // Hometax is a real institution, verified against its replica until a live check is recorded.
    const hometax = await callJson<Json>("/api/v1/providers/hometax", { key: ws.apiKey });
    expect(hometax.body).toMatchObject({ kind: "TAX_PORTAL", sandbox: false, verification: "replica", acceptedAuthMethods: ["CERTIFICATE", "PROVIDER_LOGIN", "SIMPLE_AUTH"] });
    // 간편인증: who the person is to their app, and which app, picked from those Hometax's gateway lists.
    const schema = (await callJson<Json>("/api/v1/providers/hometax/credential-schema", { key: ws.apiKey })).body;
    const simple = (schema.fields as Json[]).filter((f) => f.authMethod === "SIMPLE_AUTH");
    expect(simple.map((f) => [f.name, f.required, f.input])).toEqual([["provider", true, "select"], ["name", true, "text"], ["birthDate", true, "text"], ["phone", true, "text"], ["carrier", false, "select"]]);
    expect(simple[0]!.options.map((o: Json) => o.value)).toEqual(expect.arrayContaining(["kakao", "naver", "pass", "toss"]));
    expect(simple[0]!.options.find((o: Json) => o.value === "kakao").label).toBe("카카오톡");
    for (const field of simple.filter((f) => f.input === "text")) expect(field.secret).toBe(true);
    expect(bank.body.verification).toBe("sandbox");
    const listed = list.body.items.find((p: Json) => p.code === "sandbox.taxportal");
    expect(listed.acceptedAuthMethods).toEqual(["CERTIFICATE", "PROVIDER_LOGIN"]);
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
    const doc = await servedDocument();
    const operations = operationsOf(doc);
    const documented = operations.map(operationName);
    // Guards the derivation itself: the API had 26 operations, the hosted UI's three among them, when this test was written.
    expect(operations.length).toBeGreaterThanOrEqual(26);
    expect(documented.filter((name) => name.includes(" /connect/api/")).length).toBeGreaterThanOrEqual(3);
    for (const resource of ["data-jobs", "schemas", "providers", "api-keys", "credentials", "registration-sessions", "connections"]) {
      expect(documented.some((name) => name.includes(` /api/v1/${resource}`)), resource).toBe(true);
    }
    expect(new Set(documented).size).toBe(documented.length);
    // Every API route the app serves is in the document, so none escapes the checks below.
    const served = new Set(
      createApp()
        .routes.filter((r) => r.method !== "ALL" && /^\/(api\/v1|connect\/api|oauth|webhooks)\//.test(r.path))
        .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`),
    );
    expect([...served].filter((name) => !DOCUMENTATION_ROUTES.has(name)).sort()).toEqual([...documented].sort());

    const envelope = resolve(doc, { $ref: "#/components/schemas/Error" });
    expect(envelope.required).toEqual(expect.arrayContaining(["code", "message", "requestId"]));
    expect(envelope.properties!.code!.enum).toEqual(API_ERROR_CODES);
    for (const op of operations) {
      const name = operationName(op);
      const errors = documentedErrors(op.operation);
      if (takesInput(op.operation)) expect(errors.some((e) => e.status < 500), `${name} documents a 4xx`).toBe(true);
      for (const { status, codes, description, schema } of errors) {
        expect(schema, `${name} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
        expect(codes.length, `${name} ${status} lists its codes`).toBeGreaterThan(0);
        expect(description, `${name} ${status} names the codes it lists`).toBe(`오류: ${codes.join(", ")}`);
        for (const code of codes) {
          expect(API_ERROR_CODES, `${name} ${status}`).toContain(code);
          expect(catalogEntry(code as ApiErrorCode).status, `${name}: ${code}`).toBe(status);
        }
      }
    }

    const create = doc.paths["/api/v1/data-jobs"]!.post!;
    expect(create.requestBody!.required).toBe(true);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "404", "409", "415", "429"]));
    expect(create.parameters!.map((p) => p.name)).toContain("Idempotency-Key");
    const dataJob = doc.components.schemas.DataJob!;
    expect(dataJob.oneOf ?? dataJob.anyOf).toBeTruthy();
    expect(doc.components.securitySchemes.bearerAuth!.scheme).toBe("bearer");
  });

  it("documents what answers before each handler: the rate limit everywhere, the API key check on /api/v1 only, a JSON body's parser wherever one is taken", async () => {
    const doc = await servedDocument();
    const codesOf = (op: OperationObject) => documentedErrors(op).flatMap((e) => e.codes);
    for (const { method, path, operation } of operationsOf(doc)) {
      const name = `${method} ${path}`;
      const codes = codesOf(operation);
      expect(codes, name).toEqual(expect.arrayContaining(["API_RATE_LIMITED", "INTERNAL_ERROR"]));
      if (path.startsWith("/api/v1/")) {
        expect(codes, name).toEqual(expect.arrayContaining(["INVALID_TOKEN", "TOKEN_EXPIRED"]));
        expect(codes, name).not.toContain("REGISTRATION_SESSION_TOKEN_INVALID");
      } else {
        expect(codes, name).not.toContain("INVALID_TOKEN");
        expect(codes, name).not.toContain("TOKEN_EXPIRED");
      }
      if (operation.requestBody?.content?.["application/json"]) expect(codes, name).toEqual(expect.arrayContaining(["MALFORMED_REQUEST", "UNSUPPORTED_MEDIA_TYPE"]));
      else expect(codes, name).not.toContain("UNSUPPORTED_MEDIA_TYPE");
    }
    // The hosted UI's calls present the session token; its public key needs none.
    expect(codesOf(doc.paths["/connect/api/session"]!.get!)).toContain("REGISTRATION_SESSION_TOKEN_INVALID");
    expect(codesOf(doc.paths["/connect/api/registrations"]!.post!)).toContain("REGISTRATION_SESSION_TOKEN_INVALID");
    expect(codesOf(doc.paths["/connect/api/keys"]!.get!)).toEqual(["API_RATE_LIMITED", "INTERNAL_ERROR"]);
  });

  it("gives every operation a unique camelCase operationId", async () => {
    const operations = operationsOf(await servedDocument());
    const ids = operations.map((op) => op.operation.operationId);
    for (const [index, id] of ids.entries()) expect(id, operationName(operations[index]!)).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    const idOf = (name: string) => operations.find((op) => operationName(op) === name)?.operation.operationId;
    expect(idOf("POST /api/v1/data-jobs")).toBe("createDataJob");
    expect(idOf("GET /api/v1/data-jobs/{id}/results.csv")).toBe("getDataJobResultsCsv");
  });

  it("names the origin it was fetched from as its server, since every path is absolute", async () => {
    const doc = await servedDocument();
    expect(doc.servers).toEqual([expect.objectContaining({ url: "https://api.test" })]);
    expect(Object.keys(doc.paths).every((path) => ["/api/v1/", "/connect/api/", "/oauth/", "/webhooks/"].some((prefix) => path.startsWith(prefix)))).toBe(true);
  });
});
