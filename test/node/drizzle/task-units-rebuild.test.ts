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
