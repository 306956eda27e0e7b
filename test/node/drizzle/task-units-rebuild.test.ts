import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";

const DIR = path.resolve(import.meta.dirname, "../../../drizzle");
const REBUILD = "0034_task_units_without_rowid.sql";
const apply = (db: DatabaseSync, file: string) => db.exec(readFileSync(path.join(DIR, file), "utf8").replaceAll("--> statement-breakpoint", ""));

describe("the task_units rebuild (drizzle/0034)", () => {
  it("keeps every unit's every column, and the table is its primary key's index afterwards", () => {
    const db = new DatabaseSync(":memory:");
    for (const file of readdirSync(DIR).filter((name) => name.endsWith(".sql") && name < REBUILD).sort()) apply(db, file);
    db.exec("PRAGMA foreign_keys=OFF");
    const insert = db.prepare(
      "INSERT INTO task_units (job_id, unit_index, target_id, target_attributes, segment_start, segment_end, status, record_count, attempts, updated_at, result_id, csv_offset) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    insert.run("job-1", 0, "110-234-567890", JSON.stringify({ currency: "KRW" }), "2026-01-01", "2026-01-31", "DONE", 42, 2, 1_700_000_000_000, "result-1", 9_876);
    insert.run("job-1", 1, null, null, null, null, "QUEUED", null, 0, 1_700_000_000_001, null, null);
    insert.run("job-2", 0, null, null, "2026-02-01", "2026-02-28", "QUEUED", null, 3, 1_700_000_000_002, null, null);
    const before = db.prepare("SELECT * FROM task_units ORDER BY job_id, unit_index").all();

    apply(db, REBUILD);

    expect(db.prepare("SELECT * FROM task_units ORDER BY job_id, unit_index").all()).toEqual(before);
    expect(String((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'task_units'").get() as { sql: string }).sql)).toMatch(/WITHOUT ROWID$/);
    // No separate index for the key any more: the table is stored in key order.
    expect(db.prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'task_units' AND type = 'index'").all()).toEqual([]);
    // The defaults and the foreign key came along (the migration leaves foreign keys on: off for the defaults' row).
    db.exec("PRAGMA foreign_keys=OFF");
    db.prepare("INSERT INTO task_units (job_id, unit_index, updated_at) VALUES ('job-3', 0, 1)").run();
    expect(db.prepare("SELECT status, attempts FROM task_units WHERE job_id = 'job-3'").get()).toEqual({ status: "QUEUED", attempts: 0 });
    db.exec("PRAGMA foreign_keys=ON");
    expect(() => db.prepare("INSERT INTO task_units (job_id, unit_index, updated_at) VALUES ('no-such-job', 0, 1)").run()).toThrow(/FOREIGN KEY/);
  });
});

describe("the job plans' table (drizzle/0051)", () => {
  it("is its primary key's index, so a plan is one row written, and names a job that exists", () => {
    const db = new DatabaseSync(":memory:");
    for (const file of readdirSync(DIR).filter((name) => name.endsWith(".sql")).sort()) apply(db, file);
    expect(String((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'job_plans'").get() as { sql: string }).sql)).toMatch(/WITHOUT ROWID$/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'job_plans' AND type = 'index'").all()).toEqual([]);
    db.exec("PRAGMA foreign_keys=ON");
    expect(() => db.prepare("INSERT INTO job_plans (job_id, units) VALUES ('no-such-job', '[]')").run()).toThrow(/FOREIGN KEY/);
  });
});

describe("the request_logs rebuild (drizzle/0053)", () => {
  const REBUILT = "0053_request_logs_without_rowid.sql";

  it("keeps every row's every column, gives each row its day's counter, and leaves the table its key's index and two others", () => {
    const db = new DatabaseSync(":memory:");
    for (const file of readdirSync(DIR).filter((name) => name.endsWith(".sql") && name < REBUILT).sort()) apply(db, file);
    const insert = db.prepare(
      "INSERT INTO request_logs (id, workspace_id, api_key_id, api_key_prefix, method, path, status, error_code, latency_ms, idempotency_key, query, body, error_body, created_at, collapse_key, repeat_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    // 16:00 UTC is 01:00 the next day in Korea, 14:00 UTC still 23:00: the counter is the KST day's.
    const lateUtc = Date.parse("2026-11-01T16:00:00Z");
    insert.run("req_a", "ws-1", "key-1", "sk_live_ab", "POST", "/api/v1/data-jobs", 400, "MISSING_REQUIRED_PARAM", 12, "retry-7", JSON.stringify({ limit: "5" }), JSON.stringify({ providerCode: "sandbox.bank" }), JSON.stringify({ code: "MISSING_REQUIRED_PARAM" }), lateUtc, null, 1);
    insert.run("req_b", "ws-1", "key-1", "sk_live_ab", "GET", "/api/v1/providers", 429, "API_RATE_LIMITED", 1, null, null, null, null, lateUtc - 7_200_000, "key-1:1798300800000", 7);
    insert.run("req_c", "ws-2", "key-2", "sk_live_cd", "GET", "/api/v1/data-jobs/x", 200, null, 3, null, null, null, null, lateUtc, null, 1);
    db.prepare("INSERT INTO request_log_days (workspace_id, day, bytes, rows, omitted) VALUES ('ws-2', '2026-11-02', 1234, 1, 2)").run();
    const before = db.prepare("SELECT * FROM request_logs ORDER BY id").all();

    apply(db, REBUILT);

    expect(db.prepare("SELECT * FROM request_logs ORDER BY id").all()).toEqual(before);
    expect(String((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'request_logs'").get() as { sql: string }).sql)).toMatch(/WITHOUT ROWID$/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'request_logs' AND type = 'index' ORDER BY name").all().map((r) => r.name)).toEqual([
      "request_logs_collapse_key",
      "request_logs_workspace",
    ]);
    // The fold (the 429, charged to no day) and the row before it got an empty counter; a counter already there is left.
    expect(db.prepare("SELECT * FROM request_log_days ORDER BY workspace_id, day").all()).toEqual([
      { workspace_id: "ws-1", day: "2026-11-01", bytes: 0, rows: 0, omitted: 0 },
      { workspace_id: "ws-1", day: "2026-11-02", bytes: 0, rows: 0, omitted: 0 },
      { workspace_id: "ws-2", day: "2026-11-02", bytes: 1234, rows: 1, omitted: 2 },
    ]);
    // The default and the fold's partial unique key came along.
    db.prepare("INSERT INTO request_logs (id, workspace_id, api_key_id, api_key_prefix, method, path, status, latency_ms, created_at) VALUES ('req_d', 'ws-1', 'k', 'p', 'GET', '/', 200, 1, 1)").run();
    expect(db.prepare("SELECT repeat_count FROM request_logs WHERE id = 'req_d'").get()).toEqual({ repeat_count: 1 });
    expect(() => insert.run("req_e", "ws-1", "key-1", "p", "GET", "/", 429, "API_RATE_LIMITED", 1, null, null, null, null, 1, "key-1:1798300800000", 1)).toThrow(/UNIQUE/);
  });
});
