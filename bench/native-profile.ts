/**
 * Where workerd's own CPU goes, below what V8's profiler sees (bench:api-profile, BENCH_PERF=1): Linux `perf` samples
 * the runtime's processes while a route is driven and while the bare route is (A B B A, by the caller), and the samples
 * are summed by what the runtime was doing (JavaScript, V8's objects and strings, memory, the JS API's bindings, HTTP and I/O, the kernel), a
 * request's milliseconds each, beside the symbols that grew most. V8's profiler charges a Headers call or an
 * allocation to the JS frame that made it, or to an anonymous runtime frame; the native count says whether one thing
 * of the runtime's is behind a route's extra CPU, or many small ones. Needs `perf` (Debian's linux-perf) and leave to
 * sample the processes (root, or kernel.perf_event_paranoid <= 1).
 */
import { spawn, spawnSync } from "node:child_process";
import { descendants } from "./process-memory";
import { processType } from "./process-cpu";

const SAMPLES_PER_SECOND = 1999;

/** The workerd processes of a wrangler dev's tree. */
const workerdPids = (rootPid: number): number[] => [rootPid, ...descendants(rootPid)].filter((pid) => processType(pid) === "workerd");

export const perfAvailable = (): boolean => spawnSync("perf", ["--version"], { stdio: "ignore" }).status === 0;

/** Samples the workerd processes under `rootPid` while `drive` runs; the samples' file. */
export async function sampleWorkerd(rootPid: number, file: string, drive: () => Promise<void>): Promise<string> {
  const perf = spawn("perf", ["record", "-F", String(SAMPLES_PER_SECOND), "-o", file, "-p", workerdPids(rootPid).join(",")], { stdio: "ignore" });
  const exited = new Promise((resolve) => perf.on("exit", resolve));
  // perf attaches after it starts; samples before the drive are of an idle runtime and count for little.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await drive();
  perf.kill("SIGINT");
  await exited;
  return file;
}

/** Samples by "dso<TAB>symbol", summed over the files. */
function samplesBySymbol(files: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const lines = files.flatMap((file) => spawnSync("perf", ["report", "-i", file, "--no-children", "--sort", "dso,sym", "-n", "--stdio", "-t", "\t"], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }).stdout.split("\n"));
  for (const line of lines) {
    if (line.startsWith("#") || !line.trim()) continue;
    const [, samples, dso, symbol] = line.split("\t").map((field) => field.trim());
    const count = Number(samples);
    if (!Number.isFinite(count) || dso === undefined || symbol === undefined) continue;
    const key = `${dso}\t${symbol}`;
    counts.set(key, (counts.get(key) ?? 0) + count);
  }
  return counts;
}

const KINDS: [string, RegExp][] = [
  ["kernel: syscalls, network, scheduling", /\[k\]/],
  ["memory: allocation, copies", /tcmalloc|TCMalloc|__mem(move|cpy|set)|malloc|free\b/],
  ["JavaScript: JIT code, V8's builtins", /^\[JIT\]|Builtins_/],
  ["V8: objects, strings, JSON, handles, GC", /v8::|cppgc::|unibrow::/],
  ["JS API bindings: Headers, Request, crypto, queues", /jsg::|workerd::api::|rust\$jsg/],
  ["HTTP and I/O: kj, hyper, tokio, capnp", /kj::|kj_hyper|hyper|tokio|http::|capnp|bytes::/],
  ["workerd, the rest", /workerd::|workerd_/],
  ["storage: SQLite", /sqlite/i],
];
const kindOf = (key: string): string => KINDS.find(([, pattern]) => pattern.test(key))?.[0] ?? "other";

/**
 * A request's milliseconds of samples by kind, the route's against the bare route's, and the symbols grown most;
 * `requests` is what each side's files sampled together.
 */
export function printNativeComparison(name: string, routeFiles: string[], bareFiles: string[], requests: number): void {
  const route = samplesBySymbol(routeFiles);
  const bare = samplesBySymbol(bareFiles);
  const msPerRequest = (samples: number) => (1000 * samples) / SAMPLES_PER_SECOND / requests;
  const keys = [...new Set([...route.keys(), ...bare.keys()])];
  const byKind = new Map<string, { route: number; bare: number }>();
  for (const key of keys) {
    const kind = kindOf(key);
    const counts = byKind.get(kind) ?? { route: 0, bare: 0 };
    counts.route += route.get(key) ?? 0;
    counts.bare += bare.get(key) ?? 0;
    byKind.set(kind, counts);
  }
  const total = [...byKind.values()].reduce((sum, kind) => ({ route: sum.route + kind.route, bare: sum.bare + kind.bare }), { route: 0, bare: 0 });
  const row = (kind: string, { route: r, bare: b }: { route: number; bare: number }) => ({
    kind,
    [name]: msPerRequest(r).toFixed(3),
    bare: msPerRequest(b).toFixed(3),
    "over bare": msPerRequest(r - b).toFixed(3),
    "share of over bare": total.route > total.bare ? `${((100 * (r - b)) / (total.route - total.bare)).toFixed(0)}%` : "-",
  });
  console.log(`\n${name}: workerd's CPU a request by what the runtime did (ms, perf at ${SAMPLES_PER_SECOND} Hz, ${requests} requests each)`);
  console.table([row("total", total), ...[...byKind].sort(([, a], [, b]) => b.route - b.bare - (a.route - a.bare)).map(([kind, counts]) => row(kind, counts))]);
  const grown = keys
    .map((key) => ({ key, over: (route.get(key) ?? 0) - (bare.get(key) ?? 0) }))
    .sort((a, b) => b.over - a.over)
    .slice(0, 15);
  console.log(`${name}: the symbols grown most over the bare route`);
  console.table(grown.map(({ key, over }) => ({ symbol: key.split("\t")[1]!.replace(/^\[[.k]\] /, "").slice(0, 90), kind: kindOf(key).split(":")[0], "ms a request over bare": msPerRequest(over).toFixed(3) })));
}
