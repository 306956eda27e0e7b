import { describe, expect, it, vi } from "vitest";
import { parseCsv } from "../support/parse-csv";
import { fieldInfos } from "../../collectors/records/field-kinds";
import { documentsOf } from "../../sandbox/taxportal/documents";
import { TAXPORTAL_RECORDS } from "../../collectors/records/taxportal";
import { ID_MEMBERS } from "../../sandbox/taxportal/members";
import { addCredential, call, callJson, createWorkspace } from "./helpers";

type Json = Record<string, any>;
const PERIOD = { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-10" };
const SCHEMAS = ["taxportal.tax-invoice-lines.v1", "taxportal.business-card-purchases.v1"] as const;

describe("the tax portal's extension schemas through the public API, against the sandbox tax portal", () => {
  it.each(SCHEMAS)("collects %s and answers the ground truth in JSON and, under the Korean labels, in CSV", async (schema) => {
    const member = ID_MEMBERS[0]!;
    const ws = await createWorkspace({ businessNumber: member.businessNumber });
    await addCredential(ws.workspaceId, "sandbox.taxportal", { authMethod: "PROVIDER_LOGIN", loginId: member.loginId, password: member.password, secondFactor: member.residentPrefix });
    const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.taxportal", schema, params: PERIOD } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const job = await vi.waitUntil(
      async () => {
        const polled = await callJson<Json>(`/api/v1/data-jobs/${created.body.id}`, { key: ws.apiKey });
        return polled.body.kind === "InProgress" ? null : polled.body;
      },
      { timeout: 180_000, interval: 250 },
    );
    const truth = documentsOf(member.businessNumber, schema, { start: PERIOD.dateRangeStart, end: PERIOD.dateRangeEnd });
    expect(truth.length).toBeGreaterThan(5);
    expect(job).toMatchObject({ kind: "Succeeded", recordCount: truth.length });

    const results = await callJson<Json>(`/api/v1/data-jobs/${created.body.id}/results`, { key: ws.apiKey });
    expect(results.body).toMatchObject({ schema, totalCount: truth.length });
    expect(results.body.data).toEqual(truth);

    const csv = parseCsv(new TextDecoder().decode(new Uint8Array(await (await call(`/api/v1/data-jobs/${created.body.id}/results.csv`, { key: ws.apiKey })).arrayBuffer()).slice(3)));
    const fields = fieldInfos(TAXPORTAL_RECORDS[schema]);
    expect(csv[0]).toEqual(fields.map((f) => f.title));
    expect(csv.slice(1).filter((row) => row.length > 1)).toEqual(truth.map((record) => fields.map((f) => (record[f.name] === null ? "" : String(record[f.name])))));
  });
});
