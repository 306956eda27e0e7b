// start-order: 5 (why: vitest.config.ts)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { API_ERROR_CODES, type ApiErrorCode, catalogEntry } from "../../../worker/platform/errors/codes";
import { BUSINESS_HEADER } from "../../../worker/api/select-business";
import { call, callJson, createWorkspace } from "../../support/workers/helpers";
import { documentedErrors, type JsonSchema, type Operation, type OperationObject, operationName, operationsOf, resolve, servedDocument } from "../../support/workers/openapi-document";

type Json = Record<string, any>;

const DOC = await servedDocument();
const OPERATIONS = operationsOf(DOC);
// Each run draws new inputs (fast-check seeds anew), so coverage grows across runs; 10 per operation and run (15 until
// stop 49, when the request log and three new resources made the suite pay for its time elsewhere).
const RUNS_PER_OPERATION = 10;

/**
 * A fresh secret every `uses` requests, or once the API stopped taking it (the fuzzer may revoke its own key):
 * API keys stay clear of the rate limit and sessions of their attempt cap, both tested elsewhere.
 */
function rotating(issue: () => Promise<string>, uses: number) {
  let secret: Promise<string> | undefined;
  let used = 0;
  const current = () => {
    if (!secret || used++ >= uses) {
      secret = issue();
      used = 1;
    }
    return secret;
  };
  return Object.assign(current, { discard: () => (secret = undefined) });
}

const SESSION_OPTIONS = { registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }, { kind: "CERTIFICATE" }], originAllowlist: ["https://partner.example"] };

async function issueSessionToken(): Promise<string> {
  const ws = await createWorkspace({ businessNumber: "1208800767" });
  const issued = await callJson<Json>("/api/v1/registration-sessions", { method: "POST", key: ws.apiKey, json: SESSION_OPTIONS });
  if (issued.status !== 201) throw new Error(`registration session not issued: ${JSON.stringify(issued.body)}`);
  return issued.body.sessionToken;
}

/** Who calls: nobody, a stranger, a workspace, a partner, or the hosted UI with its session token; every route meets all of them. */
const API_KEYS = {
  workspace: rotating(async () => (await createWorkspace()).apiKey, 90),
  partner: rotating(async () => (await createWorkspace({ isPartner: true })).apiKey, 90),
};
const SECRETS: Record<string, () => Promise<string | undefined>> = { ...API_KEYS, nobody: async () => undefined, session: rotating(issueSessionToken, 4) };
const secretOf = (who: string) => (who.startsWith("stranger:") ? Promise.resolve(who.slice("stranger:".length)) : SECRETS[who]!());

/** Mostly the caller the operation's security names, so most requests get past authentication to the handler. */
function callerFor(operation: OperationObject): fc.Arbitrary<string> {
  const weights = operation.security?.length === 0 ? { session: 6, nobody: 1, workspace: 1, partner: 1 } : { workspace: 6, partner: 2, session: 1, nobody: 1 };
  return fc.oneof(
    ...Object.entries(weights).map(([who, weight]) => ({ arbitrary: fc.constant(who), weight })),
    { arbitrary: fc.string({ maxLength: 80 }).map((junk) => `stranger:${junk}`), weight: 1 },
  );
}

/** Present once in `rarity` requests. */
const sometimes = <T>(value: fc.Arbitrary<T>, rarity: number) => fc.oneof({ arbitrary: fc.constant(undefined), weight: rarity - 1 }, { arbitrary: value, weight: 1 });

/** Ids, codes and business numbers the API handed out during the run, so paths and headers also name things that exist. */
const seen: string[] = [];
function remember(value: unknown, key = ""): void {
  if (typeof value === "string" && /^(id|.+Id|kid|code|.+Code|businessNumber)$/.test(key) && !seen.includes(value)) seen.push(value);
  else if (Array.isArray(value)) value.forEach((item) => remember(item));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) remember(v, k);
}
const seenValue = fc.nat().map((n) => (seen.length ? seen[n % seen.length]! : crypto.randomUUID()));

const junkText = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("", "null", "[]", "{", "'; DROP TABLE jobs;--", "../../etc", "%00", "🙂".repeat(40), "9".repeat(400)),
);
const junkValue = fc.oneof(junkText, fc.jsonValue({ maxDepth: 2 }));

/** A value the schema allows, or (half the time) one mangled at any level: wrong types, missing required keys, junk. */
const fuzzed = (schema: JsonSchema | undefined) => fc.oneof(shaped(schema, false), shaped(schema, true));

function shaped(schema: JsonSchema | undefined, mangled: boolean, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return junkValue;
  const value = conforming(resolve(DOC, schema), mangled, depth);
  return mangled ? fc.oneof({ arbitrary: value, weight: 6 }, { arbitrary: junkValue, weight: 1 }) : value;
}

function conforming(schema: JsonSchema, mangled: boolean, depth: number): fc.Arbitrary<unknown> {
  const fixed = [schema.const, ...(schema.enum ?? [])].filter((v) => v !== undefined);
  if (fixed.length && !mangled) return fc.constantFrom(...fixed);
  const known = [...fixed, schema.example, ...(schema.examples ?? [])].filter((v) => v !== undefined);
  const inner = (s: JsonSchema) => shaped(s, mangled, depth + 1);
  const shapes = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].map(inner);
  if (schema.allOf) shapes.push(fc.tuple(...schema.allOf.map(inner)).map((parts) => Object.assign({}, ...parts.filter((p) => p && typeof p === "object"))));
  for (const type of [schema.type ?? []].flat()) shapes.push(ofType(type, schema, mangled, depth));
  const options = [...(known.length ? [{ arbitrary: fc.constantFrom(...known), weight: Math.max(shapes.length, 1) }] : []), ...shapes.map((arbitrary) => ({ arbitrary, weight: 1 }))];
  return options.length ? fc.oneof(...options) : junkValue;
}

function ofType(type: string, schema: JsonSchema, mangled: boolean, depth: number): fc.Arbitrary<unknown> {
  const inner = (s: JsonSchema | undefined) => shaped(s, mangled, depth + 1);
  switch (type) {
    case "object": {
      const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, s]) => [name, inner(s)]));
      const open = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
      const extra = open ? inner(schema.additionalProperties === true ? undefined : (schema.additionalProperties as JsonSchema)) : junkValue;
      return fc
        .tuple(
          fc.record(properties, { requiredKeys: mangled ? [] : (schema.required ?? []) }),
          open || mangled ? fc.dictionary(fc.string({ maxLength: 12 }), extra, { maxKeys: 3 }) : fc.constant({}),
        )
        .map(([known, more]) => ({ ...more, ...known }));
    }
    case "array":
      return fc.array(inner(schema.items), mangled ? { maxLength: 5 } : { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case "string": {
      const text = fc.oneof(junkText, seenValue, ...(schema.format ? [FORMATS[schema.format] ?? junkText] : []));
      return mangled ? text : text.filter((s) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity));
    }
    case "integer":
      return fc.oneof(fc.integer({ min: -5, max: 500 }), fc.integer());
    case "number":
      return fc.double();
    case "boolean":
      return fc.boolean();
    default:
      return fc.constant(null);
  }
}

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  "date-time": fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  date: fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
};

const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value) ?? "");
const asHeader = (value: unknown) => asText(value).replace(/[^\x20-\x7e]/gu, encodeURIComponent).trim();

/** A request for one operation: its path parameters, query, headers, body and caller all random, shaped by the document. */
function requestFor({ method, path, operation }: Operation) {
  const parameters = operation.parameters ?? [];
  const ofKind = (where: string) => parameters.filter((p) => p.in === where);
  const pathSegment = (schema: JsonSchema | undefined) =>
    fc
      .oneof(seenValue, fc.uuid(), fuzzed(schema).map(asText))
      // An empty or dot segment would address another route, not this one.
      .filter((s) => s !== "" && !/^\.{1,2}$/.test(s))
      .map(encodeURIComponent);
  const pathParams = fc.record(Object.fromEntries(ofKind("path").map((p) => [p.name, pathSegment(p.schema)])));
  const query = fc.record(Object.fromEntries([...ofKind("query").map((p) => [p.name, fuzzed(p.schema).map(asText)] as const), ["x", junkText] as const]), { requiredKeys: [] });
  const headers = fc
    .record({
      documented: fc.record(
        Object.fromEntries(ofKind("header").filter((p) => p.name !== BUSINESS_HEADER).map((p) => [p.name, fuzzed(p.schema).map(asHeader)])),
        { requiredKeys: [] },
      ),
      // The partner's business selector follows this rule, not the document: seldom (a workspace sending it gets no further
      // than the selection), and on every operation (those not scoped to a business must ignore it).
      [BUSINESS_HEADER]: sometimes(fc.oneof(seenValue, junkText).map(asHeader), 5),
      "Content-Type": fc.oneof(
        { arbitrary: fc.constant("application/json"), weight: 8 },
        { arbitrary: sometimes(fc.constantFrom("application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", ""), 2), weight: 2 },
      ),
    })
    .map(({ documented, ...fixed }) => Object.fromEntries(Object.entries({ ...documented, ...fixed }).filter(([, v]) => v !== undefined)) as Record<string, string>);
  const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
  const body = method === "GET" ? fc.constant(undefined) : fc.option(bodySchema ? fuzzed(bodySchema).map((v) => JSON.stringify(v)) : junkText, { nil: undefined, freq: 10 });
  return fc.record({ pathParams, query, headers, body, caller: callerFor(operation) }).map(({ pathParams, query, headers, body, caller }) => ({
    url: `${path.replace(/\{(\w+)\}/g, (_, name: string) => pathParams[name]!)}?${new URLSearchParams(query as Record<string, string>)}`,
    headers: { ...headers, "CF-Connecting-IP": `198.51.100.${Math.floor(Math.random() * 250)}` },
    body,
    caller,
  }));
}

describe("fuzzing every operation of the OpenAPI document", () => {
  it("covers the whole document, the hosted UI's token-authenticated API included", () => {
    const names = OPERATIONS.map(operationName);
    expect(names.length).toBeGreaterThanOrEqual(26);
    expect(names).toEqual(
      expect.arrayContaining(["GET /connect/api/session", "POST /connect/api/registrations", "POST /api/v1/credentials", "POST /api/v1/registration-sessions", "POST /api/v1/connections"]),
    );
  });

  it("documents X-SVC-Business and what its check answers on exactly the operations of one business's data", () => {
    const businessScoped = /^\/api\/v1\/(data-jobs|credentials|registration-sessions|schedules)(\/|$)/;
    const selection = ["CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", "PARTNER_BUSINESS_SELECTOR_REQUIRED", "INVALID_BUSINESS_REGISTRATION_NUMBER", "CONNECTION_NOT_FOUND", "CONNECTION_REVOKED"];
    expect(OPERATIONS.filter((op) => businessScoped.test(op.path)).length).toBeGreaterThanOrEqual(12);
    for (const op of OPERATIONS) {
      const header = op.operation.parameters?.find((p) => p.in === "header" && p.name === BUSINESS_HEADER);
      const codes = documentedErrors(op.operation).flatMap((e) => e.codes);
      if (businessScoped.test(op.path)) {
        expect(header, operationName(op)).toMatchObject({ required: false, schema: { type: "string" } });
        // Job creation also takes the business as a body connectionId, so a partner without the header is told so in the body's terms.
        const answers = op.operation.operationId === "createDataJob" ? selection.map((c) => (c === "PARTNER_BUSINESS_SELECTOR_REQUIRED" ? "CONNECTION_REQUIRED_FOR_PARTNER" : c)) : selection;
        expect(codes, operationName(op)).toEqual(expect.arrayContaining(answers));
      } else {
        expect(header, operationName(op)).toBeUndefined();
        expect(codes, operationName(op)).not.toContain("PARTNER_BUSINESS_SELECTOR_REQUIRED");
      }
    }
  });

  it.each(OPERATIONS.map((op) => [operationName(op), op] as const))("%s answers random input with a documented success or the catalog's envelope, never a 5xx", async (name, op) => {
    await fc.assert(
      fc.asyncProperty(requestFor(op), async ({ url, headers, body, caller }) => {
        const key = await secretOf(caller);
        const response = await call(url, { method: op.method, headers: key === undefined ? headers : { ...headers, Authorization: `Bearer ${key}` }, body });
        const text = await response.text();
        const seenAs = `${name}: ${op.method} ${url} as ${caller} -> ${response.status} ${text.slice(0, 300)}`;
        expect(response.status, seenAs).toBeLessThan(500);
        if (response.status < 400) {
          expect(Object.keys(op.operation.responses), seenAs).toContain(String(response.status));
          if (response.headers.get("Content-Type")?.startsWith("application/json")) remember(JSON.parse(text));
          return;
        }
        expect(response.headers.get("Content-Type"), seenAs).toMatch(/^application\/json/);
        const envelope = JSON.parse(text) as Json;
        if (envelope.code === "INVALID_TOKEN" && caller in API_KEYS) API_KEYS[caller as keyof typeof API_KEYS].discard();
        expect(API_ERROR_CODES, seenAs).toContain(envelope.code);
        expect(response.status, seenAs).toBe(catalogEntry(envelope.code as ApiErrorCode).status);
        expect(documentedErrors(op.operation).find((e) => e.status === response.status)?.codes, `${seenAs}: not documented`).toContain(envelope.code);
        expect(envelope.message, seenAs).toMatch(/[가-힣]/);
        expect(envelope.requestId, seenAs).toBe(response.headers.get("X-Request-Id"));
        if (envelope.fieldErrors) expect(envelope.fieldErrors[0].code, seenAs).toBe(envelope.code);
      }),
      { numRuns: RUNS_PER_OPERATION },
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
      { numRuns: 40 },
    );
  });
});
