import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { getTableName, is, Table } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as tables from "../../worker/platform/database/tables";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Each table and the one folder of worker/ whose code may read or write it. */
const OWNERS: Record<string, string> = {
  workspaces: "worker/workspaces",
  api_keys: "worker/api-keys",
  jobs: "worker/jobs",
  task_units: "worker/jobs",
  idempotency_keys: "worker/jobs",
  credentials: "worker/credentials",
  registration_sessions: "worker/registration",
  connections: "worker/partners",
  users: "worker/users",
  workspace_members: "worker/users",
  workspace_invitations: "worker/users",
  console_sessions: "worker/console-sessions",
  login_attempts: "worker/console-sessions",
  device_codes: "worker/device-codes",
  webhook_endpoints: "worker/webhooks",
  webhook_deliveries: "worker/webhooks",
  mail_outbox: "worker/mail",
  account_links: "worker/users",
  schedules: "worker/schedules",
  operators: "worker/operators",
  operator_sessions: "worker/operators",
  operator_audit: "worker/operators",
  provider_outages: "worker/catalog",
  operator_alerts: "worker/alerts",
  failure_reports: "worker/reports",
  delivery_routes: "worker/deliveries",
  route_deliveries: "worker/deliveries",
  subscriptions: "worker/billing",
  payment_methods: "worker/billing",
  invoices: "worker/billing",
  billing_ledger: "worker/billing",
  usage_credits: "worker/billing",
  credit_uses: "worker/billing",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith(".ts") ? [relative] : [];
  });
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

/** Drizzle table objects by export name, and the SQL name of each. */
const TABLE_EXPORTS = new Map(Object.entries(tables).flatMap(([name, value]) => (is(value, Table) ? [[name, getTableName(value)] as const] : [])));

/** Tables a file touches: drizzle tables it imports from db/tables, and tables its SQL text names. */
function tablesTouched(file: string): Set<string> {
  const text = withoutComments(readFileSync(path.join(ROOT, file), "utf8"));
  const touched = new Set<string>();
  for (const match of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["'][./]*db\/tables["']/g)) {
    for (const name of match[1]!.split(",").map((n) => n.replace(/^\s*type\s+/, "").split(/\s+as\s+/)[0]!.trim())) {
      const table = TABLE_EXPORTS.get(name);
      if (table) touched.add(table);
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

  it("lets only a table's owning module touch it, through drizzle or SQL", () => {
    const files = sourceFiles("worker").filter((f) => !f.startsWith("worker/db/"));
    expect(files.length).toBeGreaterThan(50);
    const trespasses = files.flatMap((file) => [...tablesTouched(file)].filter((table) => !file.startsWith(`${OWNERS[table]}/`)).map((table) => `${file} touches ${table}`));
    expect(trespasses).toEqual([]);
  });

  it("sees a trespass written either way", () => {
    // The check itself must not be blind: both forms of access in one owner's file are found.
    expect([...tablesTouched("worker/domain/jobs/lifecycle.ts")].sort()).toEqual(["jobs", "task_units"]);
    expect(tablesTouched("worker/domain/registration/sessions.ts").has("registration_sessions")).toBe(true);
  });

  it("keeps the collectors, the scraper and the sandbox free of worker code", () => {
    const offenders = ["collectors", "scraper-container", "sandbox"].flatMap((dir) =>
      sourceFiles(dir).filter((file) => /from\s+["'](?:\.\.\/)+worker\//.test(readFileSync(path.join(ROOT, file), "utf8"))),
    );
    expect(offenders).toEqual([]);
  });
});
