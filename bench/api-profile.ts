/**
 * Where the API worker's CPU goes (issue 65): one local stack as bench:api's credentialed one (no collect-tasks
 * consumer), the V8 inspector of its worker (wrangler dev's --inspector-port) driven over CDP, and two phases:
 * PROFILE_REQUESTS GETs of a finished job's detail, then as many hometax creates with a credential and an
 * Idempotency-Key of their own, each run twice unprofiled (the kernel's count of the worker's CPU) and once sampled by
 * V8's profiler. For each phase it prints self time by function and bundled module
 * (top 25) and the shares of ours (worker/, contracts/, collectors/) against hono, zod, drizzle and the runtime.
 * The sampled isolate is the worker's own: what a request leaves to waitUntil (the request log's entry) and the
 * isolate's Durable Objects and queue consumers count too, as they do on its CPU. Shares hold under load; the
 * profile's milliseconds do not (a thread the machine preempts is sampled as busy), so each run prints the load
 * average beside them and the CPU time the worker's process tree (wrangler dev, workerd with local D1) used, counted
 * by the kernel, which other processes' load leaves nearly alone. Beside each phase, the bare route of bench/api (a
 * GET or a POST of bare-worker.ts under its own wrangler dev) and the same route on a second stack without the request
 * log are counted the same way, A B C C B A: what the local runtime spends on any request (workerd, and wrangler's node
 * proxying to it, with the esbuild it runs), what the service adds, and what of that is the log: the CPU behind
 * bench/api's ratios at 10 connections on this machine's two cores. The profiles are kept as .cpuprofile files under
 * test-artifacts/bench-api-profile/ (Chrome DevTools opens them). With BENCH_PERF=1, Linux perf also samples workerd
 * itself on the route and on the bare route (bench/native-profile.ts): what of the runtime's own work grew.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { newApiKey } from "../scripts/demo-seed";
import { freePort } from "../scripts/free-port";
import { benchStack, configWithoutTaskConsumer } from "./bench-stacks";
import { startBenchWorker } from "./bench-worker";
import { treeCpuSecondsByType } from "./process-cpu";
import { perfAvailable, printNativeComparison, sampleWorkerd } from "./native-profile";

const REQUESTS = Number(process.env.PROFILE_REQUESTS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Also sample workerd itself with Linux perf, the route's against the bare route's (bench/native-profile.ts). */
const NATIVE = process.env.BENCH_PERF === "1";
if (NATIVE && !perfAvailable()) throw new Error("BENCH_PERF=1 needs Linux perf on PATH (Debian's linux-perf)");
/** Microseconds between samples: V8's default is 1000, too coarse for requests of a millisecond or two. */
const SAMPLING_INTERVAL_US = 100;
const OUT = path.resolve(import.meta.dirname, "../test-artifacts/bench-api-profile");

interface CallFrame {
  functionName: string;
  scriptId: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A CDP session over the inspector's one WebSocket: commands answered by id, events handed to listeners. */
async function inspector(port: number) {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  // wrangler's inspector proxy refuses an upgrade without an Origin it knows (a local one is among them).
  const socket = new WebSocket(target!.webSocketDebuggerUrl, { headers: { Origin: "http://127.0.0.1" } } as unknown as string[]);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let next = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, (params: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string }; method?: string; params?: unknown };
    if (message.id !== undefined && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id)!;
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error.message));
      else resolve(message.result);
    } else if (message.method) listeners.get(message.method)?.(message.params);
  });
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, on: (method: string, listener: (params: unknown) => void) => listeners.set(method, listener), close: () => socket.close() };
}
type Inspector = Awaited<ReturnType<typeof inspector>>;

/**
 * The module of each line of a script: esbuild's unminified bundle opens every module's code with a comment naming its
 * path (`// worker/app.ts`, `// node_modules/hono/dist/hono-base.js`), so a sample's line names its source file.
 */
function modulesOf(source: string): { line: number; file: string }[] {
  const starts: { line: number; file: string }[] = [];
  source.split("\n").forEach((text, line) => {
    const named = /^\/\/ ((?:\.\.\/)*[\w@.-][\w@./+-]*\.(?:ts|tsx|js|mjs|cjs|json))$/.exec(text);
    if (named) starts.push({ line, file: named[1]!.replace(/^(\.\.\/)+/, "") });
  });
  return starts;
}

function moduleAt(starts: { line: number; file: string }[], line: number): string | undefined {
  let low = 0;
  let high = starts.length - 1;
  let found: string | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (starts[middle]!.line <= line) {
      found = starts[middle]!.file;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Which side of the line a module is on: ours, a library by its package, or the runtime (V8, workerd, GC). */
function bucketOf(file: string | undefined): string {
  if (!file) return "runtime";
  if (/^(worker|contracts|collectors|sandbox)\//.test(file)) return "ours";
  const library = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)/.exec(file)?.[1];
  if (!library) return "runtime";
  if (library === "hono" || library.startsWith("@hono/")) return "hono";
  if (library === "zod" || library === "@asteasolutions/zod-to-openapi") return "zod";
  if (library === "drizzle-orm") return "drizzle";
  return library;
}

/**
 * CPU seconds a worker's process tree used while `drive` ran and for a second after (what the requests left to
 * waitUntil, the log's queue), in all and by process: workerd, and wrangler's node in front of it.
 */
async function cpuOf(workerPid: number, drive: () => Promise<void>): Promise<{ total: number; workerd: number; node: number }> {
  const before = treeCpuSecondsByType(workerPid);
  await drive();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = treeCpuSecondsByType(workerPid);
  const used = (type: string) => (after[type] ?? 0) - (before[type] ?? 0);
  const total = Object.keys(after).reduce((sum, type) => sum + used(type), 0);
  return { total, workerd: used("workerd"), node: used("node") };
}

async function record(session: Inspector, workerPid: number, drive: () => Promise<void>): Promise<{ profile: Profile; cpuSeconds: number }> {
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_US });
  await session.send("Profiler.start");
  const { total: cpuSeconds } = await cpuOf(workerPid, drive);
  const { profile } = await session.send<{ profile: Profile }>("Profiler.stop");
  await session.send("Profiler.disable");
  return { profile, cpuSeconds };
}

/** Each script's module starts, read once the profiling is over (the debugger is never on while it samples). */
async function scriptModules(session: Inspector, scriptIds: Set<string>): Promise<Map<string, { line: number; file: string }[]>> {
  const modules = new Map<string, { line: number; file: string }[]>();
  await session.send("Debugger.enable");
  for (const scriptId of scriptIds) {
    try {
      const { scriptSource } = await session.send<{ scriptSource: string }>("Debugger.getScriptSource", { scriptId });
      modules.set(scriptId, modulesOf(scriptSource));
    } catch {
      modules.set(scriptId, []);
    }
  }
  await session.send("Debugger.disable");
  return modules;
}

async function report(session: Inspector, phase: string, { profile, cpuSeconds }: { profile: Profile; cpuSeconds: number }, requests: number) {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, `${phase}.cpuprofile`), JSON.stringify(profile));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  // CDP names each node's children, not its parent.
  const parents = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node] as const)));
  const modules = await scriptModules(session, new Set(profile.nodes.map((node) => node.callFrame.scriptId).filter((id) => id && id !== "0")));
  const describe = (node: ProfileNode) => {
    const { functionName, scriptId, lineNumber, url } = node.callFrame;
    const file = moduleAt(modules.get(scriptId) ?? [], lineNumber);
    const name = functionName || "(anonymous)";
    return { key: `${name} ${file ?? url ?? ""}:${lineNumber + 1}`, name, file: (file ?? (url || "-")).replace(/^.*node_modules\//, ""), bucket: bucketOf(file) };
  };
  /** The bucket of the nearest frame of the bundle at or above a sample's: a built-in (a Response made, a send) is charged to whoever called it. */
  const callerBucket = (node: ProfileNode): string => {
    for (let at: ProfileNode | undefined = node; at; at = parents.get(at.id)) {
      const bucket = bucketOf(moduleAt(modules.get(at.callFrame.scriptId) ?? [], at.callFrame.lineNumber));
      if (bucket !== "runtime") return bucket;
    }
    return "runtime";
  };
  const self = new Map<string, { name: string; file: string; bucket: string; us: number }>();
  const buckets = new Map<string, { self: number; charged: number }>();
  const bucket = (name: string) => buckets.get(name) ?? buckets.set(name, { self: 0, charged: 0 }).get(name)!;
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index + 1] ?? 0;
    const node = nodes.get(id)!;
    if (node.callFrame.functionName === "(idle)") {
      idle += delta;
      return;
    }
    busy += delta;
    const described = describe(node);
    const entry = self.get(described.key) ?? { name: described.name, file: described.file, bucket: described.bucket, us: 0 };
    entry.us += delta;
    self.set(described.key, entry);
    bucket(described.bucket).self += delta;
    bucket(callerBucket(node)).charged += delta;
  });
  const share = (us: number) => `${((100 * us) / busy).toFixed(1)}%`;
  console.log(`\n${phase}: ${requests} requests, ${CONNECTIONS} connections; isolate busy ${(busy / 1000).toFixed(0)} ms (${(busy / 1000 / requests).toFixed(3)} ms a request), idle ${(idle / 1000).toFixed(0)} ms; worker process tree CPU ${((1000 * cpuSeconds) / requests).toFixed(2)} ms a request, profiled; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  console.table(
    [...buckets]
      .sort((a, b) => b[1].charged - a[1].charged)
      .map(([name, { self: us, charged }]) => ({
        bucket: name,
        "self ms": Math.round(us / 1000),
        "self share": share(us),
        "with the built-ins it called": share(charged),
        "µs a request (with them)": Math.round(charged / requests),
      })),
  );
  console.table(
    [...self.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, 25)
      .map((entry) => ({ function: entry.name, module: entry.file, bucket: entry.bucket, "self ms": Math.round(entry.us / 1000), share: share(entry.us) })),
  );
}

const inspectorPort = await freePort();
const stack = await benchStack("bench-api-profile", { CONCURRENT_DELIVERIES: "0" }, configWithoutTaskConsumer(), inspectorPort);
/** The same stack with the request log's middleware off: what the log costs a request, counted beside it. */
const unlogged = await benchStack("bench-api-profile-unlogged", { CONCURRENT_DELIVERIES: "0", BENCH_REQUEST_LOG_OFF: "1" }, configWithoutTaskConsumer());
const bare = await startBenchWorker("bench/wrangler.bare.toml", mkdtempSync(path.join(tmpdir(), "bare-")));
try {
  const detailKey = newApiKey();
  const createKey = newApiKey();
  const headers = (key: string) => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });
  // Without a credential the job ends Failed at once: its detail is a finished job's, kept by the isolate.
  const bankBody = JSON.stringify({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-01-31" } });
  const hometaxBody = JSON.stringify({ providerCode: "hometax", schema: "taxportal.tax-invoices.sales.v1", params: { dateRangeStart: "2025-01-01", dateRangeEnd: "2025-12-31" } });
  const routesOn = async (on: typeof stack) => {
    await on.seedWorkspaces([
      { workspaceId: crypto.randomUUID(), name: "profile detail", apiKey: detailKey },
      { workspaceId: crypto.randomUUID(), name: "profile create", apiKey: createKey, certificate: true },
    ]);
    const created = await fetch(`${on.baseUrl}/api/v1/data-jobs`, { method: "POST", headers: headers(detailKey), body: bankBody });
    return {
      "job-detail": { url: `${on.baseUrl}/api/v1/data-jobs/${((await created.json()) as { id: string }).id}`, headers: headers(detailKey) },
      "hometax-create": {
        url: `${on.baseUrl}/api/v1/data-jobs`,
        method: "POST" as const,
        headers: headers(createKey),
        body: hometaxBody,
        setupRequest: (request: autocannon.Request): autocannon.Request => ({ ...request, headers: { ...request.headers, "Idempotency-Key": crypto.randomUUID() } }),
      },
    };
  };
  const routes = await routesOn(stack);
  const unloggedRoutes = await routesOn(unlogged);
  const bareRoutes = {
    "job-detail": { url: `${bare.url}/bare` },
    "hometax-create": { url: `${bare.url}/bare`, method: "POST" as const, headers: { "Content-Type": "application/json" }, body: hometaxBody },
  };
  const refused = new Map<string, number>();
  const drive = (phase: string, request: autocannon.Request & { url: string }, amount: number) => async () => {
    const onResponse = (status: number, body: string) => {
      if (status >= 200 && status < 300) return;
      const key = `${phase} ${status} ${body.slice(0, 80)}`;
      refused.set(key, (refused.get(key) ?? 0) + 1);
    };
    await autocannon({ url: request.url, connections: CONNECTIONS, amount, requests: [{ ...request, onResponse }] });
  };
  // The steady state is what is profiled: the key's lease, the kept rows and the create context already in the isolate.
  for (const request of [...Object.values(routes), ...Object.values(unloggedRoutes), ...Object.values(bareRoutes)]) await drive("warm-up", request, 300)();
  const bareWorker = { workerPid: bare.child.pid! };

  const session = await inspector(inspectorPort);
  try {
    for (const phase of ["job-detail", "hometax-create"] as const) {
      // The phase once unprofiled first, A B C C B A with the stack without the log and the bare route, so a drift of
      // the machine weighs on all three alike: what the kernel counts then is the workers' own CPU, without the sampler's.
      const order = [
        ["bare", bareWorker, bareRoutes[phase]],
        [phase, stack, routes[phase]],
        ["without the log", unlogged, unloggedRoutes[phase]],
      ] as const;
      const counted = new Map<string, Awaited<ReturnType<typeof cpuOf>>[]>();
      for (const [name, on, request] of [...order, ...[...order].reverse()]) {
        // A refusal is counted under the target that answered it.
        const run = await cpuOf(on.workerPid, drive(name === phase ? phase : `${phase}, ${name}`, request, REQUESTS));
        counted.set(name, [...(counted.get(name) ?? []), run]);
      }
      const mean = (name: string, key: "total" | "workerd" | "node") => (1000 * counted.get(name)!.reduce((sum, run) => sum + run[key], 0)) / counted.get(name)!.length / REQUESTS;
      console.log(`\n${phase}, unprofiled, CPU a request (ms), each the mean of two runs A B C C B A; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
      console.table(
        (["total", "workerd", "node"] as const).map((key) => ({
          process: key === "node" ? "wrangler's node, esbuild" : key,
          [phase]: mean(phase, key).toFixed(2),
          bare: mean("bare", key).toFixed(2),
          "over bare": (mean(phase, key) - mean("bare", key)).toFixed(2),
          ratio: `${(mean(phase, key) / mean("bare", key)).toFixed(2)}x`,
          "without the log": mean("without the log", key).toFixed(2),
          "the log": (mean(phase, key) - mean("without the log", key)).toFixed(2),
        })),
      );
      if (NATIVE) {
        // A B B A as above, so the machine's drift between samplings weighs on both alike.
        mkdirSync(OUT, { recursive: true });
        const sides = { route: { pid: stack.workerPid, run: drive(phase, routes[phase], REQUESTS) }, bare: { pid: bare.child.pid!, run: drive(`${phase}, bare`, bareRoutes[phase], REQUESTS) } };
        const sampled = { route: [] as string[], bare: [] as string[] };
        for (const side of ["route", "bare", "bare", "route"] as const) {
          const file = path.join(OUT, `${phase}-${side}-${sampled[side].length + 1}.perf.data`);
          sampled[side].push(await sampleWorkerd(sides[side].pid, file, sides[side].run));
        }
        printNativeComparison(phase, sampled.route, sampled.bare, 2 * REQUESTS);
      }
      await report(session, phase, await record(session, stack.workerPid, drive(phase, routes[phase], REQUESTS)), REQUESTS);
    }
  } finally {
    session.close();
  }
  if (refused.size > 0) {
    console.log("\nnon-2xx answers: a profile of refusals is not the one asked for");
    console.table([...refused].map(([answer, count]) => ({ answer, count })));
    process.exitCode = 1;
  }
} finally {
  bare.child.kill("SIGTERM");
  await unlogged.stop();
  await stack.stop();
}
