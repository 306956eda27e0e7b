import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { API_ERROR_CODES } from "../../worker/errors/codes";
import { call, createWorkspace } from "./helpers";

/** A fresh key every 90 requests keeps the fuzzer clear of the rate limit, which is tested elsewhere. */
function keyRotation() {
  let key = "";
  let used = 90;
  return async () => {
    if (used++ >= 90) {
      key = (await createWorkspace()).apiKey;
      used = 1;
    }
    return key;
  };
}

const ROUTES: [string, string][] = [
  ["POST", "/api/v1/data-jobs"],
  ["GET", "/api/v1/data-jobs"],
  ["GET", "/api/v1/data-jobs/{id}"],
  ["GET", "/api/v1/data-jobs/{id}/results"],
  ["GET", "/api/v1/data-jobs/{id}/results.csv"],
  ["GET", "/api/v1/schemas/{id}"],
  ["GET", "/api/v1/providers/{id}"],
  ["GET", "/api/v1/providers/{id}/credential-schema"],
  ["POST", "/api/v1/api-keys"],
  ["DELETE", "/api/v1/api-keys/{id}"],
];

const junkText = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.constantFrom("", "null", "[]", "{", "'; DROP TABLE jobs;--", "../../etc", "%00", "🙂".repeat(40)));
const jsonish = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.record({ providerCode: fc.oneof(junkText, fc.constant("sandbox.bank")), schema: fc.oneof(junkText, fc.constant("bank.transactions.cb.v1")), params: fc.jsonValue() }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
  junkText,
);
const contentType = fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=utf-8", "");
const idSegment = fc.oneof(fc.uuid(), junkText.map(encodeURIComponent), fc.constant(""));
const queryString = fc.dictionary(fc.constantFrom("cursor", "limit", "status", "actionCodes", "x"), junkText).map((q) => new URLSearchParams(q).toString());
const idempotencyKey = fc.option(fc.string({ maxLength: 200 }).filter((s) => /^[\x20-\x7e]*$/.test(s)), { nil: undefined });

describe("fuzzing every route", () => {
  it("always answers malformed input with the envelope and a 4xx", async () => {
    const nextKey = keyRotation();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), idSegment, jsonish, contentType, queryString, idempotencyKey, fc.boolean(), async ([method, template], id, body, type, query, idem, authed) => {
        const path = template.replace("{id}", id);
        const headers: Record<string, string> = { "CF-Connecting-IP": `198.51.100.${Math.floor(Math.random() * 250)}` };
        if (type) headers["Content-Type"] = type;
        if (idem !== undefined) headers["Idempotency-Key"] = idem;
        const response = await call(`${path}?${query}`, { method, headers, key: authed ? await nextKey() : undefined, body: method === "GET" ? undefined : body });
        const text = await response.text();
        if (response.status < 400) return; // some random inputs are valid requests
        expect(response.status).toBeLessThan(500);
        const envelope = JSON.parse(text);
        expect(API_ERROR_CODES).toContain(envelope.code);
        expect(envelope.message).toMatch(/[가-힣]/);
        expect(envelope.requestId).toBe(response.headers.get("X-Request-Id"));
      }),
      { numRuns: 300 },
    );
  });

  it("never accepts a forged cursor", async () => {
    const ws = await createWorkspace();
    await fc.assert(
      fc.asyncProperty(fc.base64String({ minLength: 1, maxLength: 120 }), async (cursor) => {
        const response = await call(`/api/v1/data-jobs?cursor=${encodeURIComponent(cursor.replace(/=+$/, ""))}`, { key: ws.apiKey });
        const body = await response.json<{ code: string }>();
        expect(response.status).toBe(400);
        expect(body.code).toBe("INVALID_CURSOR");
      }),
      { numRuns: 80 },
    );
  });
});
