import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FRESH_MS, publishJob, readJob } from "../../../../worker/domain/jobs/board";
import { createJob } from "../../../../worker/domain/jobs/create";
import { findJob } from "../../../../worker/domain/jobs/store";
import { jobBoard } from "../../../../worker/domain/jobs/job-board";
import { addCredential, createWorkspace, TX_JOB, withCapturedQueue } from "../../../support/workers/helpers";

async function runningJob() {
  const ws = await createWorkspace();
  await addCredential(ws.workspaceId);
  const row = await createJob(withCapturedQueue().env, ws.workspaceId, TX_JOB);
  return { ws, row };
}

describe("job board (read model in front of D1)", () => {
  it("serves a published row without D1, and falls back to D1 once an in-progress entry is no longer fresh", async () => {
    const { ws, row } = await runningJob();
    await publishJob(env, row);
    await env.DB.prepare("UPDATE jobs SET status = 'SUCCEEDED', updated_at = ? WHERE id = ?").bind(row.updatedAt + 1, row.id).run();
    // Within the freshness window the board's answer stands (a publish follows every real transition).
    expect((await readJob(env, ws.workspaceId, row.id))!.status).toBe("PENDING");
    // Past it, D1 is asked again and the board catches up.
    expect((await readJob(env, ws.workspaceId, row.id, Date.now() + FRESH_MS + 1))!.status).toBe("SUCCEEDED");
    expect((await readJob(env, ws.workspaceId, row.id))!.status).toBe("SUCCEEDED");
  });

  it("keeps final rows for good and ignores an older row published late", async () => {
    const { ws, row } = await runningJob();
    await env.DB.prepare("UPDATE jobs SET status = 'FAILED', error = ?, updated_at = ? WHERE id = ?").bind(JSON.stringify({ code: "TIMEOUT" }), row.updatedAt + 5, row.id).run();
    const failed = (await findJob(env.DB, ws.workspaceId, row.id))!;
    await publishJob(env, failed);
    await publishJob(env, row);
    expect((await readJob(env, ws.workspaceId, row.id, Date.now() + 10 * FRESH_MS))!.status).toBe("FAILED");
  });

  it("leaves a new job off the board until its first read, which fills the board from D1", async () => {
    const { ws, row } = await runningJob();
    expect(await jobBoard(env, ws.workspaceId).get(row.id)).toBeNull();
    expect((await readJob(env, ws.workspaceId, row.id))!.status).toBe("PENDING");
    const entry = await jobBoard(env, ws.workspaceId).get(row.id);
    expect(JSON.parse(entry!.row).status).toBe("PENDING");
  });

  it("asks the board once for a finished job and every time for one in progress, and never answers another workspace from what it kept", async () => {
    const { ws, row } = await runningJob();
    let asked = 0;
    const counting = { ...env, JOB_BOARD: { getByName: (name: string) => (asked++, env.JOB_BOARD.getByName(name)) } as unknown as typeof env.JOB_BOARD };
    await publishJob(env, row);
    await readJob(counting, ws.workspaceId, row.id);
    await readJob(counting, ws.workspaceId, row.id);
    expect(asked).toBe(2);
    await env.DB.prepare("UPDATE jobs SET status = 'SUCCEEDED', updated_at = ? WHERE id = ?").bind(row.updatedAt + 1, row.id).run();
    await publishJob(env, (await findJob(env.DB, ws.workspaceId, row.id))!);
    asked = 0;
    for (let read = 0; read < 3; read++) expect((await readJob(counting, ws.workspaceId, row.id))!.status).toBe("SUCCEEDED");
    expect(asked).toBe(1);
    expect(await readJob(counting, (await createWorkspace()).workspaceId, row.id)).toBeNull();
    expect(asked).toBe(2);
  });

  it("answers unknown jobs from D1 and keeps workspaces apart", async () => {
    const { ws, row } = await runningJob();
    const other = await createWorkspace();
    await publishJob(env, row);
    expect(await readJob(env, other.workspaceId, row.id)).toBeNull();
    expect(await jobBoard(env, ws.workspaceId).get(crypto.randomUUID())).toBeNull();
  });
});
