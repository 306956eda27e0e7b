import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { getTableName, is, Table } from "drizzle-orm";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Each table and the one folder of worker/domain/ whose code may read or write it (and whose tables.ts declares it). */
const OWNERS: Record<string, string> = {
  workspaces: "worker/domain/workspaces",
  business_statuses: "worker/domain/business-status",
  api_keys: "worker/domain/api-keys",
  jobs: "worker/domain/jobs",
  task_units: "worker/domain/jobs",
  job_plans: "worker/domain/jobs",
  idempotency_keys: "worker/domain/jobs",
  credentials: "worker/domain/credentials",
  registration_sessions: "worker/domain/registration",
  connections: "worker/domain/partners",
  partner_open_banking_keys: "worker/domain/partners",
  users: "worker/domain/users",
  workspace_members: "worker/domain/users",
  workspace_invitations: "worker/domain/users",
  console_sessions: "worker/domain/console-sessions",
  login_attempts: "worker/domain/console-sessions",
  device_codes: "worker/domain/device-codes",
  webhook_endpoints: "worker/domain/webhooks",
  webhook_deliveries: "worker/domain/webhooks",
  mail_outbox: "worker/domain/mail",
  account_links: "worker/domain/users",
  schedules: "worker/domain/schedules",
  operators: "worker/domain/operators",
  operator_sessions: "worker/domain/operators",
  operator_audit: "worker/domain/operators",
  provider_outages: "worker/domain/catalog",
  provider_days: "worker/domain/catalog",
  operator_alerts: "worker/domain/alerts",
  failure_reports: "worker/domain/reports",
  delivery_routes: "worker/domain/deliveries",
  route_deliveries: "worker/domain/deliveries",
  subscriptions: "worker/domain/billing",
  payment_methods: "worker/domain/billing",
  invoices: "worker/domain/billing",
  billing_ledger: "worker/domain/billing",
  usage_credits: "worker/domain/billing",
  credit_uses: "worker/domain/billing",
  request_logs: "worker/domain/request-logs",
  request_log_days: "worker/domain/request-logs",
  rewrap_walks: "worker/domain/key-rotation",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith(".ts") ? [relative] : [];
  });
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

/** Each owner's tables: worker/domain/<owner>/tables.ts, the schema drizzle-kit reads (drizzle.config.ts). */
const TABLE_FILES = readdirSync(path.join(ROOT, "worker/domain"))
  .map((owner) => `worker/domain/${owner}/tables.ts`)
  .filter((file) => existsSync(path.join(ROOT, file)));
const TABLE_MODULES: [string, Record<string, unknown>][] = await Promise.all(TABLE_FILES.map(async (file) => [file, await import(path.join(ROOT, file))] as [string, Record<string, unknown>]));

/** Drizzle table objects by export name, and the SQL name of each. */
const TABLE_EXPORTS = new Map(
  TABLE_MODULES.flatMap(([, module]) => Object.entries(module).flatMap(([name, value]) => (is(value, Table) ? [[name, getTableName(value)] as const] : []))),
);

/**
 * Tables a file touches: drizzle tables it imports from an owner's tables file (`./tables`, `../<owner>/tables`,
 * `…/domain/<owner>/tables`), and tables its SQL text names. A tables file's foreign key naming another owner's table
 * (`.references(() => workspaces.id)`) neither reads nor writes it.
 */
function tablesTouched(file: string): Set<string> {
  const text = withoutComments(readFileSync(path.join(ROOT, file), "utf8"));
  const touched = new Set<string>();
  for (const match of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["']\.{1,2}\/(?:[\w.-]+\/)*tables["']/g)) {
    for (const name of match[1]!.split(",").map((n) => n.replace(/^\s*type\s+/, "").split(/\s+as\s+/)[0]!.trim())) {
      const table = TABLE_EXPORTS.get(name);
      if (!table) continue;
      const uses = text.replace(match[0], "").match(new RegExp(`\\b${name}\\b`, "g"))?.length ?? 0;
      const references = text.match(new RegExp(`\\.references\\(\\(\\)\\s*=>\\s*${name}\\.`, "g"))?.length ?? 0;
      if (file.endsWith("/tables.ts") && uses > 0 && uses === references) continue;
      touched.add(table);
    }
  }
  for (const match of text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+[`"]?([a-z_]+)\b/gi)) {
    const table = match[1]!.toLowerCase();
    if (table in OWNERS) touched.add(table);
  }
  return touched;
}

describe("module boundaries", () => {
  it("names an owner for every table the schema declares", () => {
    expect([...TABLE_EXPORTS.values()].sort()).toEqual(Object.keys(OWNERS).sort());
  });

  it("declares each table in its owner's tables.ts", () => {
    const misplaced = TABLE_MODULES.flatMap(([file, module]) =>
      Object.values(module)
        .filter((value) => is(value, Table))
        .map((value) => getTableName(value as Table))
        .filter((table) => file !== `${OWNERS[table]}/tables.ts`)
        .map((table) => `${file} declares ${table}`),
    );
    expect(misplaced).toEqual([]);
  });

  it("lets only a table's owning module touch it, through drizzle or SQL", () => {
    const files = sourceFiles("worker");
    expect(files.length).toBeGreaterThan(50);
    const trespasses = files.flatMap((file) => [...tablesTouched(file)].filter((table) => !file.startsWith(`${OWNERS[table]}/`)).map((table) => `${file} touches ${table}`));
    expect(trespasses).toEqual([]);
  });

  it("sees a trespass written either way", () => {
    // The check itself must not be blind: both forms of access in one owner's file are found.
    expect([...tablesTouched("worker/domain/jobs/lifecycle.ts")].sort()).toEqual(["job_plans", "jobs", "task_units"]);
    expect(tablesTouched("worker/domain/registration/sessions.ts").has("registration_sessions")).toBe(true);
  });

  it("keeps the collectors, the scraper and the sandbox free of worker code", () => {
    // Their tests (collectors/<institution>/*.test.ts) may check against the worker's code; the image leaves them out.
    const offenders = ["collectors", "scraper-container", "sandbox"].flatMap((dir) =>
      sourceFiles(dir)
        .filter((file) => !file.endsWith(".test.ts"))
        .filter((file) => /from\s+["'](?:\.\.\/)+worker\//.test(readFileSync(path.join(ROOT, file), "utf8"))),
    );
    expect(offenders).toEqual([]);
  });
});
