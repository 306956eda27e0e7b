/**
 * The institution's pace (issue 65): every real-institution schema collected for 12 months by its own adapter against
 * its replica, each request counted at a counting transport (as collectors/hometax/volume.test.ts counts them), every
 * record compared with the replica's ground truth. From those counts, what a 12-month job of a large business takes:
 * requests and minutes at the facts' pace (Hometax about one request a second, facts A1), beside the fewest requests
 * the facts allow for the same records (their largest pages: 50 rows a screen list, 1,000 a file download, 25 an
 * Open Banking page; one login and one site hop a job; no detail request where a download carries the fields).
 */
import type { LoginCredential, TaskUnit } from "../contracts/task-unit";
import { hometaxAdapter } from "../collectors/hometax/index";
import { DEFAULT_OPTIONS } from "../collectors/hometax/options";
import { PAGE_SIZE } from "../collectors/hometax/paging";
import { DOWNLOAD_PAGE_SIZE } from "../collectors/hometax/text-download";
import { REAL_DEPS } from "../collectors/hometax/pacing";
import { openBankingAdapter, TRANSACTIONS_SCHEMA } from "../collectors/openbanking/index";
import { exchangeCode, newState, readCallback, authorizationUrl } from "../collectors/openbanking/oauth";
import { OPENBANKING_HOSTS } from "../collectors/openbanking/hosts";
import { PAGE_ROWS } from "../collectors/openbanking/transactions";
import { DEFAULT_OPTIONS as OPENBANKING_DEFAULTS } from "../collectors/openbanking/options";
import { institutionHttp } from "../collectors/kit/protocol/institution-http";
import { issueJointCertificate, SANDBOX_BUSINESS_NUMBER } from "../sandbox/certificates/issue";
import { hometaxDocuments } from "../sandbox/hometax/ground-truth";
import { hometaxStandIns } from "../sandbox/hometax/stand-ins";
import { REPLICA_CLIENT, transactionsBetween } from "../sandbox/openbanking/ground-truth";
import { openBankingStandIns } from "../sandbox/openbanking/stand-ins";
import { walkReplicaConsent } from "../sandbox/openbanking/walk-consent";
import { startSandbox } from "../sandbox/server";
import type { DocumentType } from "../sandbox/sandbox-taxportal/documents";
import { findProvider, unitWindowDays } from "../worker/domain/catalog/providers";
import { splitRange } from "../worker/domain/pipeline/segments";
import { canonicalJson } from "../worker/platform/lib/canonical-json";

const LINES = "taxportal.tax-invoice-lines.v1";
const RANGE = { start: "2025-01-01", end: "2025-12-31" };
const REDIRECT = "https://bench.example/openbanking/callback";
const FACTS_REQUESTS_PER_SECOND = 1;

/** The large business of issue 65, per schema: 6,000 tax invoices and 20,000 cash receipts, half sales, half purchases. */
const LARGE_BUSINESS: Record<string, number> = {
  "taxportal.tax-invoices.sales.v1": 3_000,
  "taxportal.tax-invoices.purchase.v1": 3_000,
  // A lines job reads both sides' invoices (their lines come with the invoices' workbook or details): counted in invoices.
  [LINES]: 6_000,
  "taxportal.cash-receipts.sales.v1": 10_000,
  "taxportal.cash-receipts.purchase.v1": 10_000,
  "taxportal.business-card-purchases.v1": 5_000,
  // Three accounts of 5,000 transactions each.
  [TRANSACTIONS_SCHEMA]: 15_000,
};
const BANK_ACCOUNTS = 3;

/** What one request was: a login's, a site hop or session check, a list page, a file download page, or one record's detail. */
type Kind = "login" | "other" | "list" | "download" | "detail";

export interface PaceRow {
  schema: string;
  records: number;
  /** What the requests go by: a lines job's invoices, another schema's records. */
  documents: number;
  requests: number;
  byKind: Record<Kind, number>;
  /** List and download queries made (their first pages): the windows times the kinds a schema asks for. */
  queries: { list: number; download: number };
  /** Query windows of the adapter in the year, and units. */
  units: number;
}

function hometaxKind(url: string, body: string): Kind {
  if (/actionId=ATEETBDA001R02\b/.test(url)) return "detail";
  if (body.includes("downloadParam")) return "download";
  if (/wqAction\.do/.test(url) && body.includes("pageInfoVO")) return "list";
  return "other";
}

const bodyText = (init?: RequestInit) => (typeof init?.body === "string" ? init.body : init?.body instanceof URLSearchParams ? init.body.toString() : "");
const firstPage = (body: string) => /"pageNum"\s*:\s*1\b|pageNum%22%3A1(?!\d)/.test(body);

/** Counts by kind through a transport; `phase` says whether the requests now are the login's. */
function counter(kindOf: (url: string, body: string) => Kind) {
  const byKind: Record<Kind, number> = { login: 0, other: 0, list: 0, download: 0, detail: 0 };
  const queries = { list: 0, download: 0 };
  let inLogin = true;
  const transport: typeof fetch = (input, init) => {
    const body = bodyText(init);
    const kind = inLogin ? "login" : kindOf(String(input), body);
    byKind[kind]++;
    if ((kind === "list" || kind === "download") && firstPage(body)) queries[kind]++;
    return fetch(input, init);
  };
  return { byKind, queries, transport, loggedIn: () => (inLogin = false) };
}

const sameRecords = (schema: string, got: unknown[], want: unknown[]) => {
  // Key order and absent fields aside, as the adapter tests' toEqual compares them.
  const key = (r: unknown) => canonicalJson(r);
  const a = got.map(key).sort();
  const b = want.map(key).sort();
  if (a.length !== b.length || a.some((v, i) => v !== b[i])) throw new Error(`${schema}: ${got.length} records collected, not the ${want.length} of ground truth`);
};

async function hometaxRows(sandboxUrl: string): Promise<PaceRow[]> {
  const provider = findProvider("hometax")!;
  const { certificate, privateKey, password } = await issueJointCertificate({ idn: SANDBOX_BUSINESS_NUMBER });
  const credential: LoginCredential = { authMethod: "CERTIFICATE", certificate, privateKey, password };
  const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber: SANDBOX_BUSINESS_NUMBER };
  // The real pace's waits asked for and not waited: the requests are what is counted, the minutes come from them.
  const adapter = hometaxAdapter(DEFAULT_OPTIONS, { ...REAL_DEPS, sleep: async () => {} });
  const rows: PaceRow[] = [];
  // The schemas of the large business's volumes; the card schemas (issue 62) are read from the card purchases, counted there.
  for (const schema of provider.schemas.filter((id) => id in LARGE_BUSINESS)) {
    const count = counter(hometaxKind);
    const http = institutionHttp({ hosts: adapter.hosts, standIns: hometaxStandIns(sandboxUrl), transport: count.transport });
    const session = await adapter.login(http, credential, ctx);
    count.loggedIn();
    const records: unknown[] = [];
    // The executor's units: a schema's own where its unit would otherwise outrun a unit's bound (tax invoices).
    const units = splitRange(RANGE.start, RANGE.end, unitWindowDays(provider, schema));
    for (const [unitIndex, segment] of units.entries()) {
      const unit: TaskUnit = { jobId: "bench", unitIndex, schema, target: null, segment, params: {} };
      records.push(...(await adapter.collect(session, unit, ctx)));
    }
    sameRecords(schema, records, hometaxDocuments(SANDBOX_BUSINESS_NUMBER, schema as DocumentType, RANGE));
    const invoices = () => (["taxportal.tax-invoices.sales.v1", "taxportal.tax-invoices.purchase.v1"] as const).reduce((n, side) => n + hometaxDocuments(SANDBOX_BUSINESS_NUMBER, side, RANGE).length, 0);
    rows.push({ schema, records: records.length, documents: schema === LINES ? invoices() : records.length, requests: Object.values(count.byKind).reduce((a, b) => a + b, 0), byKind: count.byKind, queries: count.queries, units: units.length });
  }
  return rows;
}

async function openBankingRow(sandboxUrl: string): Promise<PaceRow> {
  const provider = findProvider("openbanking")!;
  const count = counter((url) => (/transaction_list/.test(url) ? "list" : "other"));
  const http = institutionHttp({ hosts: OPENBANKING_HOSTS, standIns: openBankingStandIns(sandboxUrl), transport: count.transport });
  const state = newState();
  const start = authorizationUrl({ environment: "testbed", clientId: REPLICA_CLIENT.clientId, redirectUri: REDIRECT, state, clientInfo: "bench" });
  const url = new URL(start);
  const callback = await walkReplicaConsent(`${sandboxUrl}/openbanking/${url.hostname}${url.pathname}${url.search}`, "obuser1");
  const grant = await exchangeCode(institutionHttp({ hosts: OPENBANKING_HOSTS, standIns: openBankingStandIns(sandboxUrl) }), "testbed", REPLICA_CLIENT, readCallback(callback.searchParams, state).code, REDIRECT);
  const adapter = openBankingAdapter({ environment: "testbed", minIntervalMs: 0 });
  const ctx = { baseUrl: "https://testapi.openbanking.or.kr/" };
  const session = await adapter.login(http, grant.credential, ctx);
  const targets = await adapter.discoverTargets(session, TRANSACTIONS_SCHEMA, ctx);
  count.loggedIn();
  let records = 0;
  let units = 0;
  for (const target of targets) {
    const collected: unknown[] = [];
    for (const segment of splitRange(RANGE.start, RANGE.end, provider.pageWindowDays)) {
      collected.push(...(await adapter.collect(session, { jobId: "bench", unitIndex: units++, schema: TRANSACTIONS_SCHEMA, target, segment, params: {} }, ctx)));
    }
    const want = transactionsBetween(target.id, RANGE.start, RANGE.end).length;
    if (collected.length !== want) throw new Error(`${TRANSACTIONS_SCHEMA} ${target.id}: ${collected.length} records collected, not the ${want} of ground truth`);
    records += collected.length;
  }
  // Every window's first page: the replica's pages carry no page number, so a window is a query.
  count.queries.list = units;
  return { schema: TRANSACTIONS_SCHEMA, records, documents: records, requests: Object.values(count.byKind).reduce((a, b) => a + b, 0), byKind: count.byKind, queries: count.queries, units };
}

/**
 * A large business's requests the adapter makes, from what it made at the replica: its login and per-query requests as
 * counted, each query's pages for its share of the records (spread evenly over the queries), and its details per record.
 */
function adapterRequests(row: PaceRow, records: number): number {
  // A lines job's pages and details go by its invoices, not by its lines.
  const per = (queries: number, size: number) => (queries === 0 ? 0 : queries * Math.max(1, Math.ceil(records / queries / size)));
  const listSize = row.schema === TRANSACTIONS_SCHEMA ? PAGE_ROWS : PAGE_SIZE;
  const detailsPerRecord = row.documents === 0 ? 0 : row.byKind.detail / row.documents;
  return row.byKind.login + row.byKind.other + per(row.queries.list, listSize) + per(row.queries.download, DOWNLOAD_PAGE_SIZE) + Math.round(detailsPerRecord * records);
}

/**
 * The fewest the facts allow for the same records: the login as counted, one site hop (the replica's `other`
 * requests of one query window), and the largest pages: tax invoices by the Excel download, which carries the lines
 * (facts A2, S1 PR #5), after one totals call a window; cash-receipt sales by the text download; purchases and card
 * purchases at 50 a screen page (no download is known for them); Open Banking at 25 rows a page over the whole year
 * per account (no source gives a longest period, facts §5).
 */
function fewestRequests(row: PaceRow, records: number): number {
  const windows = row.schema === TRANSACTIONS_SCHEMA ? BANK_ACCOUNTS : 4;
  const hop = row.schema === TRANSACTIONS_SCHEMA ? 0 : Math.ceil(row.byKind.other / row.units);
  const pages = (queries: number, size: number) => queries * Math.max(1, Math.ceil(records / queries / size));
  if (row.schema === TRANSACTIONS_SCHEMA) return row.byKind.login + pages(windows, PAGE_ROWS);
  // Two classes a window for invoices (01 tax invoices, 03 invoices), as the adapter asks; the lines job reads both sides.
  if (row.schema.startsWith("taxportal.tax-invoice")) {
    const queries = windows * 2 * (row.schema === LINES ? 2 : 1);
    return row.byKind.login + hop + queries + pages(queries, DOWNLOAD_PAGE_SIZE);
  }
  if (row.schema === "taxportal.cash-receipts.sales.v1") return row.byKind.login + hop + windows + pages(windows, DOWNLOAD_PAGE_SIZE);
  return row.byKind.login + hop + pages(windows, PAGE_SIZE);
}

export async function institutionPace(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, openbanking: { callbackUrls: [REDIRECT] } });
  try {
    const rows = [...(await hometaxRows(sandbox.url)), await openBankingRow(sandbox.url)];
    console.log(`\ninstitution requests, 12 months (${RANGE.start}..${RANGE.end}) against the replicas, every record equal to ground truth:`);
    console.table(
      rows.map((r) => ({
        schema: r.schema,
        units: r.units,
        records: r.records,
        "list, download queries": `${r.queries.list}, ${r.queries.download}`,
        requests: r.requests,
        "per record": (r.requests / Math.max(1, r.records)).toFixed(2),
        login: r.byKind.login,
        "hops, checks": r.byKind.other,
        "list pages": r.byKind.list,
        downloads: r.byKind.download,
        details: r.byKind.detail,
      })),
    );
    const interval = (DEFAULT_OPTIONS.requestIntervalMs + DEFAULT_OPTIONS.requestJitterMs / 2) / 1000;
    console.log(`\na large business's 12-month job: at the facts' pace (${FACTS_REQUESTS_PER_SECOND} request a second) and the Hometax adapter's (${interval} s a request on average); Open Banking's adapter waits ${OPENBANKING_DEFAULTS.minIntervalMs} ms:`);
    console.table(
      rows.map((r) => {
        const records = LARGE_BUSINESS[r.schema]!;
        const made = adapterRequests(r, records);
        const fewest = fewestRequests(r, records);
        const ownPace = r.schema === TRANSACTIONS_SCHEMA ? OPENBANKING_DEFAULTS.minIntervalMs / 1000 : interval;
        return {
          schema: r.schema,
          records: r.schema === LINES ? `${records} invoices` : records,
          "adapter requests": made,
          "minutes at 1/s": (made / FACTS_REQUESTS_PER_SECOND / 60).toFixed(1),
          "minutes at the adapter's pace": ((made * ownPace) / 60).toFixed(1),
          "fewest requests": fewest,
          "fewest, minutes at 1/s": (fewest / FACTS_REQUESTS_PER_SECOND / 60).toFixed(1),
          "adapter / fewest": (made / fewest).toFixed(1),
        };
      }),
    );
  } finally {
    await sandbox.close();
  }
}
