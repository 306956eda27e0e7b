// start-order: 12 (why: vitest.e2e.config.ts)
import { beforeAll, describe, expect, it } from "vitest";
import { issueJointCertificate } from "../../sandbox/certificates/issue";
import { hometaxDocuments } from "../../sandbox/hometax/ground-truth";
import { ACCOUNTING_FIRM_CLIENTS } from "../../sandbox/hometax/members";
import { client, startStack } from "../support/e2e/stack";

type Json = Record<string, any>;

let api: ReturnType<typeof client>;

beforeAll(async () => {
  api = client(await startStack());
});

const RANGE = { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-01-31" };
const SCHEMAS = [
  ["taxportal.tax-invoices.sales.v1", "ntsTransactionId"],
  ["taxportal.tax-invoices.purchase.v1", "ntsTransactionId"],
  ["taxportal.cash-receipts.sales.v1", "approvalNumber"],
  ["taxportal.cash-receipts.purchase.v1", "approvalNumber"],
] as const;
const sortedBy = (key: string, records: Json[]) => [...records].sort((a, b) => String(a[key]).localeCompare(String(b[key])));

describe("an accounting firm holding its clients' certificates in one workspace", () => {
  it("registers forty businesses' certificates and collects each business's documents by credentialId, exactly", async () => {
    const registered = await Promise.all(
      ACCOUNTING_FIRM_CLIENTS.map(async (businessNumber, i) => {
        const { certificate, privateKey, password } = await issueJointCertificate({ idn: businessNumber });
        const res = await api.json("POST", "/api/v1/credentials", {
          providerCode: "hometax",
          authMethod: "CERTIFICATE",
          fields: { certificate, privateKey, password },
          businessNumber,
          label: `고객사 ${i + 1}`,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body).toMatchObject({ businessNumber, isDefault: false, label: `고객사 ${i + 1}` });
        return { businessNumber, credentialId: res.body.id as string };
      }),
    );
    const listed = (await api.json("GET", "/api/v1/credentials?providerCode=hometax&limit=100")).body.items.filter((c: Json) => c.status === "ACTIVE");
    // The forty clients' and the firm's own certificate, which stays the default.
    expect(listed).toHaveLength(41);
    expect(listed.filter((c: Json) => c.isDefault).map((c: Json) => c.businessNumber)).not.toContain(ACCOUNTING_FIRM_CLIENTS[0]);

    const jobs = await Promise.all(
      registered.map(async ({ businessNumber, credentialId }, i) => {
        const [schema, key] = SCHEMAS[i % SCHEMAS.length]!;
        const job = await api.createJob({ providerCode: "hometax", schema, params: RANGE, credentialId });
        expect(job.credentialId).toBe(credentialId);
        return { businessNumber, schema, key, job };
      }),
    );
    for (const { businessNumber, schema, key, job } of jobs) {
      const done = await api.waitForJob(job.id);
      const truth = hometaxDocuments(businessNumber, schema, { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd });
      expect(done, `${businessNumber} ${schema}: ${JSON.stringify(done.error)}`).toMatchObject({ kind: "Succeeded", recordCount: truth.length, credentialId: job.credentialId });
      const { data } = (await api.json("GET", `/api/v1/data-jobs/${job.id}/results`)).body;
      expect(sortedBy(key, data)).toEqual(sortedBy(key, truth));
    }
    // Each business's documents are its own: no two clients' results are the same.
    expect(new Set(jobs.map(({ businessNumber, schema }) => JSON.stringify(hometaxDocuments(businessNumber, schema, { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd })))).size).toBe(40);
  });
});
