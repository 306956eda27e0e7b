import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { JobBoard } from "../../../../worker/domain/jobs/job-board";
import type { JobRow } from "../../../../worker/domain/jobs/store";

// How readers use the board (freshness, final rows, an older row published late, workspaces apart) is asserted through
// domain/jobs/board.ts in ../job-board.test.ts; here, what the object itself keeps: each entry's time, and its day-long alarm.

const DAY = 24 * 3_600_000;

/** The board keeps a row as JSON and compares only its id and updatedAt: a row of those and a status is enough here. */
const row = (id: string, updatedAt: number, status: JobRow["status"]) => ({ id, updatedAt, status }) as JobRow;

const boardOfItsOwn = () => env.JOB_BOARD.getByName(crypto.randomUUID());

const stored = (board: DurableObjectStub<JobBoard>) =>
  runInDurableObject(board, async (_board: JobBoard, state) => ({
    rows: state.storage.sql.exec<{ id: string; cached_at: number }>("SELECT id, cached_at FROM rows ORDER BY id").toArray().map((r) => ({ ...r })),
    alarm: await state.storage.getAlarm(),
  }));

describe("JobBoard", () => {
  it("refreshes an entry's time when the same row is published again, and neither rolls it back nor refreshes it for an older one", async () => {
    const board = boardOfItsOwn();
    const id = crypto.randomUUID();
    const t = Date.now();
    await board.put(row(id, 10, "RUNNING"), t);
    await board.put(row(id, 10, "RUNNING"), t + 5);
    expect(await board.get(id)).toEqual({ row: JSON.stringify(row(id, 10, "RUNNING")), cachedAt: t + 5 });
    await board.put(row(id, 9, "PENDING"), t + 9);
    expect(await board.get(id)).toEqual({ row: JSON.stringify(row(id, 10, "RUNNING")), cachedAt: t + 5 });
    await board.put(row(id, 11, "SUCCEEDED"), t + 12);
    expect(JSON.parse((await board.get(id))!.row).status).toBe("SUCCEEDED");
  });

  it("sets its alarm a day after the first publish, forgets there the rows not refreshed for a day, and stops once none is left", async () => {
    const board = boardOfItsOwn();
    const [stale, fresh] = [`a-${crypto.randomUUID()}`, `b-${crypto.randomUUID()}`];
    const before = Date.now();
    await board.put(row(stale, 1, "RUNNING"));
    const after = Date.now();
    const first = await stored(board);
    expect(first.alarm).toBeGreaterThanOrEqual(before + DAY);
    expect(first.alarm).toBeLessThanOrEqual(after + DAY);
    // A later publish leaves the alarm where it is.
    await board.put(row(fresh, 1, "RUNNING"), after + 1_000);
    expect((await stored(board)).alarm).toBe(first.alarm);

    // The stale row was last published more than a day ago.
    await runInDurableObject(board, (_board: JobBoard, state) => void state.storage.sql.exec("UPDATE rows SET cached_at = cached_at - ? WHERE id = ?", DAY + 1, stale));
    expect(await runDurableObjectAlarm(board)).toBe(true);
    const swept = await stored(board);
    expect(swept.rows).toEqual([{ id: fresh, cached_at: after + 1_000 }]);
    expect(swept.alarm).toBeGreaterThan(Date.now() + DAY - 60_000);
    expect(await board.get(stale)).toBeNull();

    await runInDurableObject(board, (_board: JobBoard, state) => void state.storage.sql.exec("UPDATE rows SET cached_at = cached_at - ?", 2 * DAY));
    expect(await runDurableObjectAlarm(board)).toBe(true);
    expect(await stored(board)).toEqual({ rows: [], alarm: null });
  });
});
