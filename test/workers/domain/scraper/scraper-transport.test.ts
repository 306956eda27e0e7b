import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bankGroundTruth } from "../../../../sandbox/sandbox-bank/ground-truth";
import { createJob } from "../../../../worker/domain/jobs/create";
import { ContainerScraper } from "../../../../worker/domain/scraper/container-client";
import { pipelineDeps } from "../../../../worker/domain/pipeline/deps";
import { executeMessage } from "../../../../worker/domain/pipeline/executor";
import { containerInstanceName, containerInstances } from "../../../../worker/domain/scraper/scraper-container";
import { addCredential, createWorkspace, withCapturedQueue } from "../../../support/workers/helpers";

const LOGIN = { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" } as const;
const UNIT = { jobId: "j", unitIndex: 0, schema: "bank.accounts.cb.v1", target: null, segment: null, params: {} };

/** What each instance's Durable Object was sent, by instance. */
async function seenBy(count: number): Promise<string[][]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => (await env.SCRAPER_STAND_IN.getByName(containerInstanceName(i)).fetch("http://scraper/__stand-in/seen")).json<string[]>()),
  );
}

// The stand-in answers the same fetch a Container does; its own class is not the container's.
const standIn = env.SCRAPER_STAND_IN as unknown as NonNullable<Env["SCRAPER"]>;

/** The production wiring: a SCRAPER container binding and no scraper URL. */
function productionScraper(instances: number): Env {
  return { ...env, SCRAPER: standIn, SCRAPER_INSTANCES: String(instances), SCRAPER_URL: undefined };
}

describe("scraper client over container instances (Durable Object binding)", () => {
  it("sends a session's every call to the instance that logged in, and nothing to the others", async () => {
    // Instances keep what they were sent across tests: only what this test adds counts.
    const before = await seenBy(3);
    const client = new ContainerScraper(containerInstances(standIn, 3), env.SCRAPER_SHARED_SECRET, undefined, () => 0.5);
    const { sessionId } = await client.openSession("sandbox.bank", LOGIN);
    expect(sessionId.startsWith("1~")).toBe(true);
    expect(await client.collect(sessionId, UNIT)).toHaveLength(3);
    await client.closeSession(sessionId);
    const after = await seenBy(3);
    const scraperId = sessionId.slice(2);
    expect(after[1]!.slice(before[1]!.length)).toEqual(["POST /sessions", `POST /sessions/${scraperId}/collect`, `DELETE /sessions/${scraperId}`]);
    expect(after[0]).toEqual(before[0]);
    expect(after[2]).toEqual(before[2]);
  });

  it("runs a job end to end when the environment binds the scraper as containers", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const queue = withCapturedQueue();
    const production = { ...productionScraper(2), TASKS: queue.env.TASKS };
    const range = { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-31" };
    const job = await createJob(production, ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: range });
    const before = (await seenBy(2)).flat().filter((call) => call === "POST /sessions").length;
    expect(await executeMessage({ ...pipelineDeps(production), inlineBudgetMs: 60_000 }, queue.sent[0]!)).toEqual({ kind: "ack" });
    const row = await env.DB.prepare("SELECT status, record_count FROM jobs WHERE id = ?").bind(job.id).first<{ status: string; record_count: number }>();
    expect(row).toEqual({ status: "SUCCEEDED", record_count: bankGroundTruth("user_good", { start: range.dateRangeStart, end: range.dateRangeEnd }).transactions.length });
    expect((await seenBy(2)).flat().filter((call) => call === "POST /sessions").length).toBe(before + 1);
  });
});
