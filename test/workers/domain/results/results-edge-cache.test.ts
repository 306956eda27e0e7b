import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteStoredResults } from "../../../../worker/domain/results/purge";
import { bankTransaction as tx, call, callJson, jobWithUnits } from "../../../support/workers/helpers";

const UNITS = [[tx("a", "급여", 10), tx("b", "이체, \"따옴표\"", -5)], [tx("c", null, 1)], [tx("d", "=SUM(A1)", 2)]];

/** What a response answered, the parts every request has its own of left out. */
async function answer(response: Response) {
  const headers = [...response.headers].filter(([name]) => !/^(x-request-id|x-ratelimit-|server-timing$)/i.test(name));
  return { status: response.status, headers, bytes: new Uint8Array(await response.arrayBuffer()), timing: response.headers.get("Server-Timing") ?? "" };
}

const readsR2 = (timing: string) => /(^|,\s*)r2;dur=[\d.]+/.test(timing);
const fromCache = (timing: string) => /(^|,\s*)cache;desc="hit"/.test(timing);

/** Reads until this location's cache answers: the first reader keeps the bytes after its answer (in waitUntil). */
async function readUntilCached(read: () => Promise<Response>) {
  for (let tries = 0; tries < 50; tries++) {
    const got = await answer(await read());
    if (fromCache(got.timing)) return got;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("never served from the cache");
}

describe("a finished job's results at the edge", () => {
  it("serve JSON, CSV and a download link's bytes from the cache after the first read, the same answer with no R2 read, and 410 once deleted", async () => {
    const { ws, jobId } = await jobWithUnits(UNITS, [0, 1, 2]);
    const link = (await callJson<{ url: string }>(`/api/v1/data-jobs/${jobId}/download-links`, { method: "POST", key: ws.apiKey })).body.url;
    const reads = {
      json: () => call(`/api/v1/data-jobs/${jobId}/results`, { key: ws.apiKey }),
      link: () => call(new URL(link).pathname),
      csv: () => call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey }),
    };
    const firsts = new Map<string, Awaited<ReturnType<typeof answer>>>();
    for (const [name, read] of Object.entries(reads)) {
      const first = await answer(await read());
      expect(first.status, name).toBe(200);
      // A link's bytes are results.csv's: the link's read kept them for it.
      expect(name === "csv" ? fromCache(first.timing) : readsR2(first.timing), `${name}: ${first.timing}`).toBe(true);
      const cached = await readUntilCached(read);
      expect(readsR2(cached.timing), `${name}: ${cached.timing}`).toBe(false);
      expect({ ...cached, timing: "" }, name).toEqual({ ...first, timing: "" });
      firsts.set(name, first);
    }
    expect(firsts.get("csv")!.bytes).toEqual(firsts.get("link")!.bytes);

    // Behind the service's back: the stored objects go, and the answers stay as they were, so none reads R2.
    await deleteStoredResults(env.RESULTS, jobId);
    for (const [name, read] of Object.entries(reads)) {
      const again = await answer(await read());
      expect(fromCache(again.timing), `${name}: ${again.timing}`).toBe(true);
      expect({ ...again, timing: "" }, name).toEqual({ ...firsts.get(name)!, timing: "" });
    }

    expect((await call(`/api/v1/data-jobs/${jobId}/results`, { method: "DELETE", key: ws.apiKey })).status).toBe(200);
    for (const [name, read] of Object.entries(reads)) {
      const response = await read();
      expect(response.status, name).toBe(410);
      expect(((await response.json()) as { code: string }).code, name).toBe("DATA_JOB_RESULTS_DELETED");
    }
  });

  it("never keep a running job's partial results: every read goes to R2", async () => {
    const { ws, jobId } = await jobWithUnits(UNITS, [0, 2]);
    for (const path of [`/api/v1/data-jobs/${jobId}/results`, `/api/v1/data-jobs/${jobId}/results.csv`]) {
      const first = await answer(await call(path, { key: ws.apiKey }));
      // Long enough for a finished job's put to land (readUntilCached above needs one or two tries).
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = await answer(await call(path, { key: ws.apiKey }));
      for (const got of [first, second]) expect(readsR2(got.timing) && !fromCache(got.timing), `${path}: ${got.timing}`).toBe(true);
      expect(second.bytes).toEqual(first.bytes);
    }
  });

  it("tell every cache outside the service to keep none of it: JSON, CSV, a link and its bytes are no-store, private, from the edge cache or not", async () => {
    const { ws, jobId } = await jobWithUnits(UNITS, [0, 1, 2]);
    const made = await call(`/api/v1/data-jobs/${jobId}/download-links`, { method: "POST", key: ws.apiKey });
    expect([made.status, made.headers.get("Cache-Control")]).toEqual([201, "no-store, private"]);
    const link = ((await made.json()) as { url: string }).url;
    const reads = {
      json: () => call(`/api/v1/data-jobs/${jobId}/results`, { key: ws.apiKey }),
      csv: () => call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey }),
      link: () => call(new URL(link).pathname),
    };
    const cacheControl = (got: Awaited<ReturnType<typeof answer>>) => got.headers.find(([name]) => name.toLowerCase() === "cache-control")?.[1];
    for (const [name, read] of Object.entries(reads)) {
      const first = await answer(await read());
      expect([first.status, cacheControl(first)], name).toEqual([200, "no-store, private"]);
      // The worker's own cache still keeps the bytes: the header is the client's, the entry has its own.
      expect(cacheControl(await readUntilCached(read)), name).toBe("no-store, private");
    }
    const running = await jobWithUnits(UNITS, [0]);
    expect((await call(`/api/v1/data-jobs/${running.jobId}/results`, { key: running.ws.apiKey })).headers.get("Cache-Control")).toBe("no-store, private");
  });
});
