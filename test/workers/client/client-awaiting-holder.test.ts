import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CollectClient, type HolderApproval } from "../../../client/src/index";
import { jobError } from "../../../contracts/job-failures";
import { JobLifecycle } from "../../../worker/domain/jobs/lifecycle";
import { fileAddress, jobWithUnits } from "../../support/workers/helpers";

/** The typed client inside workerd, calling the worker through its fetch handler. */
const clientFor = (apiKey: string) =>
  new CollectClient({
    baseUrl: "https://api.test",
    apiKey,
    fetch: (input, init) => {
      const request = new Request(input, init);
      request.headers.set("CF-Connecting-IP", fileAddress());
      return exports.default.fetch(request);
    },
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the typed client on a job waiting for its holder's phone", () => {
  it("reports each request to the phone once to onAwaitingHolder, waits past its budget while the request stands, and returns the job's end", async () => {
    const { ws, jobId } = await jobWithUnits([[], []], []);
    const jobs = new JobLifecycle(env as Env);
    const asked = (sinceMs: number, untilMs: number) => ({ method: "SIMPLE_AUTH" as const, provider: "kakao" as const, since: new Date(sinceMs).toISOString(), until: new Date(untilMs).toISOString() });
    // Windows well past the test's own 1.4 s: under a loaded machine the job's failure below may land a second late,
    // and a lapsed window would end the wait before it.
    const WINDOW_MS = 5_000;
    const first = asked(Date.now(), Date.now() + WINDOW_MS);
    await jobs.awaitingHolder(jobId, first);

    const approvals: HolderApproval[] = [];
    const waitingSnapshots: number[] = [];
    // A budget far below the request's window: a job waiting for a person is no hang.
    const waited = clientFor(ws.apiKey).waitForJob(jobId, {
      maxWaitSeconds: 0.05,
      onAwaitingHolder: (approval) => void approvals.push(approval),
      onProgress: (job) => void (job.awaitingHolder && waitingSnapshots.push(Date.now())),
    });
    await sleep(700);
    // The app asked again (a new `since`): reported once more; then the request lapses and the job fails.
    const second = asked(Date.now(), Date.now() + WINDOW_MS);
    await jobs.awaitingHolder(jobId, second);
    await sleep(700);
    await jobs.failed({ id: jobId, workspaceId: ws.workspaceId }, jobError("LOGIN_SECOND_FACTOR_REQUIRED"), Date.now());

    const done = await waited;
    expect(done).toMatchObject({ id: jobId, kind: "Failed", error: { code: "LOGIN_SECOND_FACTOR_REQUIRED" } });
    expect(approvals).toEqual([first, second]);
    expect(waitingSnapshots.length).toBeGreaterThan(approvals.length);
  });
});
