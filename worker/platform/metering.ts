import type { Usage } from "./metering-usage";
import { flagOn } from "./configuration";

/**
 * Counts what the worker asks of the platform, in the units Cloudflare bills
 * (docs/costs.md), for `npm run bench:cost`. On only where COST_METER is "1"
 * (the benchmark's local stack); a deployment never sets it. The counters
 * live in the isolate, which wrangler dev keeps to one.
 */
const zero = (): Usage => ({
  workerInvocations: 0,
  d1Queries: 0,
  d1RowsRead: 0,
  d1RowsWritten: 0,
  d1RowsWrittenBy: {},
  durableObjectRequests: 0,
  queueMessages: 0,
  r2ClassA: 0,
  r2ClassB: 0,
  r2BytesWritten: 0,
});

let usage = zero();

export const meteringOn = (env: Pick<Env, "COST_METER">) => flagOn(env.COST_METER);

/** The counters so far, and a fresh start when `reset`. */
export function takeUsage(reset: boolean): Usage {
  const taken = usage;
  if (reset) usage = zero();
  return taken;
}

/** `insert task_units`, `update jobs`: enough of a statement to tell which table's writes it counts. */
function writer(query: string): string {
  const [, verb = "?", table = "?"] = /^\s*(insert|update|delete)\b(?:\s+or\s+\w+)?(?:\s+into|\s+from)?\s+"?(\w+)"?/i.exec(query) ?? [];
  return `${verb.toLowerCase()} ${table}`;
}

function countD1(query: string, meta: D1Meta | undefined): void {
  usage.d1Queries++;
  usage.d1RowsRead += meta?.rows_read ?? 0;
  const written = meta?.rows_written ?? 0;
  usage.d1RowsWritten += written;
  if (written > 0) usage.d1RowsWrittenBy[writer(query)] = (usage.d1RowsWrittenBy[writer(query)] ?? 0) + written;
}

const statements = new WeakMap<object, { statement: D1PreparedStatement; query: string }>();

/** first() and raw() report no rows read: the meter runs all() instead and shapes its answer as they would. */
function meteredStatement(statement: D1PreparedStatement, query: string): D1PreparedStatement {
  const proxy = new Proxy(statement, {
    get(target, prop) {
      if (prop === "bind") return (...values: unknown[]) => meteredStatement(target.bind(...values), query);
      if (prop === "run" || prop === "all") {
        return async () => {
          const result = await target.all();
          countD1(query, result.meta);
          return result;
        };
      }
      if (prop === "first") {
        return async (column?: string) => {
          const result = await target.all<Record<string, unknown>>();
          countD1(query, result.meta);
          const row = result.results[0] ?? null;
          return column === undefined ? row : (row?.[column] ?? null);
        };
      }
      if (prop === "raw") {
        return async () => {
          const result = await target.all<Record<string, unknown>>();
          countD1(query, result.meta);
          return result.results.map((row) => Object.values(row));
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  statements.set(proxy, { statement, query });
  return proxy;
}

function meteredD1(d1: D1Database): D1Database {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => meteredStatement(target.prepare(query), query);
      if (prop === "batch") {
        return async (batch: D1PreparedStatement[]) => {
          const results = await target.batch(batch.map((s) => statements.get(s)?.statement ?? s));
          results.forEach((result, i) => countD1(statements.get(batch[i]!)?.query ?? "", result.meta));
          return results;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const R2_CLASS_A = new Set(["put", "delete", "list", "createMultipartUpload", "resumeMultipartUpload"]);
const R2_CLASS_B = new Set(["get", "head"]);

function meteredR2(bucket: R2Bucket): R2Bucket {
  return new Proxy(bucket, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (R2_CLASS_A.has(String(prop))) usage.r2ClassA++;
        if (R2_CLASS_B.has(String(prop))) usage.r2ClassB++;
        if (prop === "put") {
          const body = args[1];
          usage.r2BytesWritten += typeof body === "string" ? new TextEncoder().encode(body).byteLength : body instanceof ArrayBuffer || ArrayBuffer.isView(body) ? body.byteLength : 0;
        }
        return value.apply(target, args);
      };
    },
  });
}

function meteredQueue<T>(queue: Queue<T>): Queue<T> {
  return {
    send: (message, options) => {
      usage.queueMessages++;
      return queue.send(message, options);
    },
    sendBatch: (messages, options) => {
      const all = [...messages];
      usage.queueMessages += all.length;
      return queue.sendBatch(all, options);
    },
    metrics: () => queue.metrics(),
  } as Queue<T>;
}

/** Every call on a stub is one Durable Object request (RPC or fetch). */
function meteredStub<S extends object>(stub: S): S {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      // Awaiting a stub looks up `then`: that is no request.
      if (prop === "then" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        usage.durableObjectRequests++;
        // Not value.apply: on an RPC stub every property, `apply` too, is a remote method.
        return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
      };
    },
  });
}

function meteredNamespace<N extends DurableObjectNamespace<any>>(namespace: N): N {
  return new Proxy(namespace, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "get" || prop === "getByName") return (...args: unknown[]) => meteredStub((value as (...a: unknown[]) => object).apply(target, args));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The bindings of one invocation, counted, with every billed call counted. */
export function meteredEnv(env: Env): Env {
  usage.workerInvocations++;
  return {
    ...env,
    DB: meteredD1(env.DB),
    RESULTS: meteredR2(env.RESULTS),
    TASKS: meteredQueue(env.TASKS),
    REQUEST_GATES: meteredNamespace(env.REQUEST_GATES),
    CREDENTIAL_LOCKS: meteredNamespace(env.CREDENTIAL_LOCKS),
    JOB_BOARD: meteredNamespace(env.JOB_BOARD),
    ...(env.SCRAPER ? { SCRAPER: meteredNamespace(env.SCRAPER) } : {}),
  };
}
