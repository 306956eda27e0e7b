import { describe, expect, it } from "vitest";
import { call, callJson, createWorkspace, madeUpToken, onClock } from "../../support/workers/helpers";
import { hostedUiHeaders } from "../../support/workers/registration-envelope";

const REQUEST_ID = /^req_[0-9a-f]{32}$/;

function expectEnvelope(body: Record<string, unknown>, headers: Headers, code: string) {
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe("string");
  expect(body.message).toMatch(/[가-힣]/);
  expect(body.requestId).toMatch(REQUEST_ID);
  expect(headers.get("X-Request-Id")).toBe(body.requestId);
}

describe("error envelope", () => {
  it("answers malformed JSON with MALFORMED_REQUEST", async () => {
    const ws = await createWorkspace();
    const res = await callJson("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, headers: { "Content-Type": "application/json" }, body: "{not json" });
    expect(res.status).toBe(400);
    expectEnvelope(res.body, res.headers, "MALFORMED_REQUEST");
  });

  it("answers a non-JSON content type with 415", async () => {
    const ws = await createWorkspace();
    const res = await callJson("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, headers: { "Content-Type": "text/plain" }, body: "hello" });
    expect(res.status).toBe(415);
    expectEnvelope(res.body, res.headers, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers a missing body with the required fields", async () => {
    const ws = await createWorkspace();
    const res = await callJson<{ fieldErrors: { field: string; code: string }[] }>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: {} });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.map((f) => [f.field, f.code])).toEqual([
      ["body.providerCode", "MISSING_REQUIRED_PARAM"],
      ["body.schema", "MISSING_REQUIRED_PARAM"],
    ]);
  });

  it("answers a format error with a general message and says per field what it expected", async () => {
    const ws = await createWorkspace();
    type Validation = { code: string; message: string; fieldErrors: { field: string; code: string; message: string }[] };
    const name = await callJson<Validation>("/api/v1/api-keys", { method: "POST", key: ws.apiKey, json: { name: 5 } });
    expect(name.status).toBe(400);
    expect(name.body.code).toBe("INVALID_PARAM_FORMAT");
    expect(name.body.message).not.toMatch(/날짜|YYYY/);
    expect(name.body.fieldErrors).toEqual([{ field: "body.name", code: "INVALID_PARAM_FORMAT", message: "문자열 값이어야 합니다." }]);
    const limit = await callJson<Validation>("/api/v1/data-jobs?limit=500", { key: ws.apiKey });
    expect(limit.body.fieldErrors).toEqual([{ field: "query.limit", code: "INVALID_PARAM_FORMAT", message: "100 이하여야 합니다." }]);
    const date = await callJson<Validation>("/api/v1/data-jobs", {
      method: "POST",
      key: ws.apiKey,
      json: { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2026/01/01", dateRangeEnd: "2026-01-31" } },
    });
    expect(date.body.message).toBe(name.body.message);
    expect(date.body.fieldErrors[0]).toMatchObject({ field: "body.params.dateRangeStart", code: "INVALID_PARAM_FORMAT", message: expect.stringContaining("YYYY-MM-DD") });
  });

  it("answers an unknown route with RESOURCE_NOT_FOUND", async () => {
    const ws = await createWorkspace();
    for (const path of ["/api/v1/nope", "/nope", "/api/v2/data-jobs"]) {
      const res = await callJson(path, { key: ws.apiKey });
      expect(res.status).toBe(404);
      expectEnvelope(res.body, res.headers, "RESOURCE_NOT_FOUND");
    }
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const ws = await createWorkspace();
    const res = await callJson("/api/v1/data-jobs", { method: "PUT", key: ws.apiKey, json: {} });
    expect(res.status).toBe(405);
    expectEnvelope(res.body, res.headers, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("Allow")).toContain("POST");
  });

  it("answers an oversize body with MALFORMED_REQUEST and stores nothing", async () => {
    const ws = await createWorkspace();
    const huge = { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params: { pad: "x".repeat(300_000) } };
    const res = await callJson("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: huge });
    expect(res.status).toBe(400);
    expectEnvelope(res.body, res.headers, "MALFORMED_REQUEST");
    const list = await callJson<{ items: unknown[] }>("/api/v1/data-jobs", { key: ws.apiKey });
    expect(list.body.items).toEqual([]);
  });

  it("puts X-Request-Id and rate headers on success too", async () => {
    const ws = await createWorkspace();
    const res = await call("/api/v1/schemas", { key: ws.apiKey });
    await res.arrayBuffer();
    expect(res.headers.get("X-Request-Id")).toMatch(REQUEST_ID);
    expect(res.headers.get("X-RateLimit-Limit-Minute")).toBe("100");
    expect(res.headers.get("X-RateLimit-Limit-Hour")).toBe("5000");
    expect(res.headers.get("X-RateLimit-Remaining")).toBe("99");
  });
});

describe("authentication", () => {
  it.each([
    ["missing", undefined],
    ["not bearer", "Basic abc"],
    ["malformed", "Bearer !!"],
    ["unknown", "Bearer sk_doesnotexistdoesnotexist"],
  ])("rejects a %s key with INVALID_TOKEN", async (_name, authorization) => {
    const headers: Record<string, string> = { "CF-Connecting-IP": `10.0.0.${Math.floor(Math.random() * 250)}` };
    if (authorization) headers.Authorization = authorization;
    const res = await callJson("/api/v1/data-jobs", { headers });
    expect(res.status).toBe(401);
    expectEnvelope(res.body, res.headers, "INVALID_TOKEN");
  });

  it("rejects an expired key with TOKEN_EXPIRED", async () => {
    const ws = await createWorkspace();
    const created = await callJson<{ secret: string }>("/api/v1/api-keys", {
      method: "POST",
      key: ws.apiKey,
      json: { name: "short", expiresAt: new Date(Date.now() + 1000).toISOString() },
    });
    expect(created.status).toBe(201);
    await new Promise((r) => setTimeout(r, 1100));
    const res = await callJson("/api/v1/data-jobs", { key: created.body.secret });
    expect(res.status).toBe(401);
    expectEnvelope(res.body, res.headers, "TOKEN_EXPIRED");
  });

  it("serves the OpenAPI document and reference page without a key", async () => {
    const doc = await callJson<{ openapi: string; paths: Record<string, unknown> }>("/api/v1/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    const page = await call("/api/v1/docs");
    expect(page.headers.get("Content-Type")).toContain("text/html");
    const html = await page.text();
    // Scalar and what starts it come from the worker itself: the page's policy allows scripts from this origin only.
    expect(page.headers.get("Content-Security-Policy")).toContain("script-src 'self';");
    const [viewer, start] = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    const scalar = await call(viewer!);
    expect([scalar.status, scalar.headers.get("Content-Type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    expect(await scalar.text()).toContain("createApiReference");
    expect(await (await call(start!)).text()).toContain('url: "/api/v1/openapi.json"');
  });
});

describe("rate headers on every response", () => {
  const ip = () => ({ "CF-Connecting-IP": `100.64.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });

  async function issuedSessionToken(): Promise<string> {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const issued = await callJson<{ sessionToken: string }>("/api/v1/registration-sessions", {
      method: "POST",
      key: ws.apiKey,
      json: { registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }], originAllowlist: ["https://partner.example"] },
    });
    return issued.body.sessionToken;
  }

  async function overTheLimit(): Promise<Response> {
    const headers = ip();
    // The window is the minute: on a stopped clock, the burst and the call after it fall in one.
    return onClock(0, async () => {
      await Promise.all(Array.from({ length: 100 }, () => call("/api/v1/schemas", { headers }).then((r) => r.arrayBuffer())));
      return call("/api/v1/schemas", { headers });
    });
  }

  const cases: [string, number, () => Promise<Response>][] = [
    ["a success", 200, async () => call("/api/v1/schemas", { key: (await createWorkspace()).apiKey })],
    ["a validation error", 400, async () => call("/api/v1/data-jobs", { method: "POST", key: (await createWorkspace()).apiKey, json: {} })],
    ["an oversize body", 400, async () => call("/api/v1/data-jobs", { method: "POST", key: (await createWorkspace()).apiKey, json: { pad: "x".repeat(300_000) } })],
    ["a missing key", 401, () => call("/api/v1/data-jobs", { headers: ip() })],
    ["a made-up key", 401, () => call("/api/v1/data-jobs", { key: madeUpToken("sk_"), headers: ip() })],
    ["an unknown API route", 404, async () => call("/api/v1/nope", { key: (await createWorkspace()).apiKey })],
    ["an unknown path outside the API", 404, () => call("/nope", { headers: ip() })],
    ["a wrong method", 405, async () => call("/api/v1/data-jobs", { method: "PUT", key: (await createWorkspace()).apiKey, json: {} })],
    ["a wrong method outside the API", 405, () => call("/connect", { method: "POST", headers: ip() })],
    ["the rate limit", 429, overTheLimit],
    ["the OpenAPI document", 200, () => call("/api/v1/openapi.json", { headers: ip() })],
    ["the reference page", 200, () => call("/api/v1/docs", { headers: ip() })],
    ["the root redirect", 302, () => call("/", { headers: ip(), redirect: "manual" })],
    ["the hosted registration page", 200, () => call("/connect", { headers: ip() })],
    ["the hosted UI's session", 200, async () => call("/connect/api/session", { headers: { ...hostedUiHeaders(await issuedSessionToken()), ...ip() } })],
    ["the hosted UI's session with a made-up token", 401, () => call("/connect/api/session", { headers: { ...hostedUiHeaders(madeUpToken("rst_")), ...ip() } })],
    ["the hosted UI's encryption key", 200, () => call("/connect/api/keys", { headers: ip() })],
  ];

  it.each(cases)("puts them on %s", async (_name, status, request) => {
    const res = await request();
    await res.arrayBuffer();
    expect(res.status).toBe(status);
    expect(res.headers.get("X-RateLimit-Limit-Minute")).toBe("100");
    expect(res.headers.get("X-RateLimit-Limit-Hour")).toBe("5000");
    expect(res.headers.get("X-RateLimit-Remaining")).toMatch(/^\d+$/);
  });
});
