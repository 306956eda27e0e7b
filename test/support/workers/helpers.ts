import { type QueueResult, runInDurableObject } from "cloudflare:test";
import { expect, vi } from "vitest";
import { env, exports } from "cloudflare:workers";
import { issueApiKey } from "../../../worker/domain/api-keys/store";
import { createApp } from "../../../worker/app";
import { database } from "../../../worker/platform/database/client";
import { credentials } from "../../../worker/domain/credentials/tables";
import { workspaces } from "../../../worker/domain/workspaces/tables";
import type { LoginCredential } from "../../../contracts/task-unit";
import type { RequestGate } from "../../../worker/domain/api-keys/request-gate";
import type { PipelineMessage } from "../../../worker/domain/jobs/messages";
import { credentialIdentity } from "../../../worker/domain/credentials/identity";
import { sealCredential } from "../../../worker/domain/vault/envelope";
import { createJob } from "../../../worker/domain/jobs/create";
import { JobLifecycle } from "../../../worker/domain/jobs/lifecycle";
import { storeUnitResults } from "../../../worker/domain/results/unit-results";
import { BankTransactionRecord } from "../../../contracts/records/bank";
import type { ReceivedWebhook } from "../webhook-receiver";

export interface TestWorkspace {
  workspaceId: string;
  apiKey: string;
  apiKeyId: string;
}

/** A fresh workspace with one API key (allowed to manage keys, as a workspace's first key is), so tests never share rate-limit or job state. */
export async function createWorkspace(options: { monthlyJobCap?: number | null; businessNumber?: string; isPartner?: boolean } = {}): Promise<TestWorkspace> {
  const workspaceId = crypto.randomUUID();
  await database(env.DB).insert(workspaces).values({
    id: workspaceId,
    name: "테스트 워크스페이스",
    businessNumber: options.businessNumber ?? null,
    monthlyJobCap: options.monthlyJobCap ?? null,
    isPartner: options.isPartner ?? false,
    createdAt: Date.now(),
  });
  const { row, secret } = await issueApiKey(env.DB, { workspaceId, name: "test", canManageKeys: true });
  return { workspaceId, apiKey: secret, apiKeyId: row.id };
}

/**
 * The caller's address for this test file's requests (CF-Connecting-IP), one of 172.16.0.0/12 per file: files share
 * the runtime's storage, and without it every request would count against one address's keyless rate limits.
 */
export function fileAddress(): string {
  const file = expect.getState().testPath ?? "";
  let hash = 0;
  for (const char of file) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `172.${16 + (hash & 15)}.${(hash >>> 4) & 255}.${((hash >>> 12) % 254) + 1}`;
}

/**
 * Calls the worker under test through its real fetch handler; with `env`,
 * the same app runs on those bindings instead (one of them wrapped to fail).
 */
export async function call(path: string, init: RequestInit & { key?: string; json?: unknown; env?: Env } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", fileAddress());
  if (init.key) headers.set("Authorization", `Bearer ${init.key}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  }
  const request = new Request(`https://api.test${path}`, { ...init, headers, body });
  return init.env ? createApp().fetch(request, init.env) : exports.default.fetch(request);
}

export async function callJson<T = Record<string, unknown>>(path: string, init: Parameters<typeof call>[1] = {}): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await call(path, init);
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

/** Moves the clock of `onClock` to `msIntoMinute` into its minute (past 60,000: into the next one). */
export type SetClock = (msIntoMinute: number) => void;

/**
 * Rate limits count in fixed windows that reset on the minute. Rather than wait for a real minute's edge (up to a
 * minute a test), `body` runs on a stopped clock, `msIntoMinute` into the coming minute, which it moves itself; the
 * request gates run in this isolate and read the same `Date`, so a burst falls in one window however slow the machine.
 * Only `Date` is faked: timers, and so a client's wait of Retry-After seconds, stay real. The clock is put back after
 * `body`; a gate that counted ahead of real time starts a new window when next asked (request-gate.ts counts a
 * window only at its own start).
 */
export async function onClock<T>(msIntoMinute: number, body: (set: SetClock) => Promise<T>): Promise<T> {
  const now = Date.now();
  const minute = now - (now % 60_000) + 60_000;
  const set: SetClock = (ms) => vi.setSystemTime(minute + ms);
  vi.useFakeTimers({ toFake: ["Date"] });
  set(msIntoMinute);
  try {
    return await body(set);
  } finally {
    vi.useRealTimers();
  }
}

/** A well-formed token nobody issued. */
export const madeUpToken = (prefix: string): string => `${prefix}${crypto.randomUUID().replaceAll("-", "")}`;

/** What a request gate keeps in its SQLite storage: its tables and the database's size. */
export function gateStorage(gate: DurableObjectStub<RequestGate>): Promise<{ tables: string[]; bytes: number }> {
  return runInDurableObject(gate, (_gate: RequestGate, state) => ({
    tables: state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master").toArray().map((row) => row.name),
    bytes: state.storage.sql.databaseSize,
  }));
}

/**
 * Stores a sealed credential for a workspace as registration would, without the certificate checks: its own
 * identity, the provider's default when it has none yet.
 */
export async function addCredential(
  workspaceId: string,
  providerCode = "sandbox.bank",
  credential: LoginCredential = { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" },
): Promise<string> {
  const id = crypto.randomUUID();
  const hasDefault = await env.DB.prepare("SELECT 1 FROM credentials WHERE workspace_id = ? AND provider_code = ? AND status = 'ACTIVE' AND is_default = 1").bind(workspaceId, providerCode).first();
  await database(env.DB).insert(credentials).values({
    id,
    workspaceId,
    providerCode,
    authMethod: credential.authMethod,
    identity: credential.authMethod === "PROVIDER_LOGIN" ? await credentialIdentity(providerCode, credential, null) : `certificate:test#${id}`,
    isDefault: !hasDefault,
    businessNumber: (await env.DB.prepare("SELECT business_number AS n FROM workspaces WHERE id = ?").bind(workspaceId).first<{ n: string | null }>())?.n ?? null,
    sealed: await sealCredential(env.VAULT_MASTER_KEY, { credentialId: id, workspaceId, providerCode }, credential),
    createdAt: Date.now(),
  });
  return id;
}

export const TX_JOB = { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-01-31" } };

/**
 * The worker's bindings with the job queue captured rather than consumed, so
 * a test drives each pipeline step itself and sees every hand-off. With
 * `failingSends`, that many sends first throw as an unavailable queue would,
 * delivering nothing.
 */
export function withCapturedQueue(options: { failingSends?: number } = {}): { env: Env; sent: PipelineMessage[] } {
  const sent: PipelineMessage[] = [];
  let failuresLeft = options.failingSends ?? 0;
  const accept = (messages: PipelineMessage[]) => {
    if (failuresLeft > 0) {
      failuresLeft--;
      throw new Error("Queue send failed: service unavailable");
    }
    sent.push(...messages);
  };
  // The pipeline only sends; a queue's metrics have no part here.
  const TASKS = {
    send: async (message: PipelineMessage) => accept([message]),
    sendBatch: async (messages: Iterable<MessageSendRequest<PipelineMessage>>) => accept([...messages].map((m) => m.body)),
  } as unknown as Queue<PipelineMessage>;
  return { env: { ...env, TASKS }, sent };
}

/** Queue messages as the runtime hands them to a consumer, one a body. */
export const queueDeliveries = <T>(bodies: T[]) => bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body }));

/**
 * The runtime delivering messages to the worker's own queue handler, as a queue would (compatibility flag
 * service_binding_extra_handlers; not in the stable types), with what the handler acked and retried.
 */
export function dispatchToQueue<T>(queueName: string, messages: ReturnType<typeof queueDeliveries<T>>): Promise<QueueResult> {
  return (exports.default as unknown as { queue(name: string, messages: unknown[]): Promise<QueueResult> }).queue(queueName, messages);
}

/** A bank transaction record as the pipeline stores it. */
export const bankTransaction = (identifier: string, description: string | null, amount: number): Record<string, unknown> => ({
  schema: "bank.transactions.cb.v1",
  accountNumber: "1002003004005",
  accountNumberFormatted: "100-200-3004005",
  accountType: "CHECKING",
  amount,
  balance: 1000,
  currencyCode: "KRW",
  description,
  identifier,
  transactionAt: "2026-01-05T10:00:00+09:00",
});

/**
 * A job of the workspace with some units finished, taken through the pipeline's own transitions (under the job's first
 * fence): running, or succeeded once every unit finished. The workspace gets a bank credential for it unless it has one.
 */
export async function jobInWorkspace(workspaceId: string, units: Record<string, unknown>[][], finished: number[], params: Record<string, unknown> = TX_JOB.params): Promise<string> {
  const credential = await env.DB.prepare("SELECT id FROM credentials WHERE workspace_id = ? AND provider_code = ? AND status = 'ACTIVE'")
    .bind(workspaceId, TX_JOB.providerCode)
    .first();
  if (!credential) await addCredential(workspaceId);
  // Its planning message is captured, not run: the units below are all there is.
  const queued = withCapturedQueue().env;
  const job = await createJob(queued, workspaceId, { ...TX_JOB, params });
  const jobs = new JobLifecycle(queued);
  await jobs.planned(job, units.map(() => ({ target: null, segment: null })), job.leaseFence, Date.now());
  // Committed together, as a delivery commits the units it collected: one object for all of them.
  const stored = await storeUnitResults(env.RESULTS, job.id, BankTransactionRecord, finished.map((index) => ({ unitIndex: index, records: units[index]! })));
  if (stored.length > 0) await jobs.unitsCommitted(job, stored, job.leaseFence, Date.now());
  return job.id;
}

/** A running job with some units finished, in a fresh workspace. */
export async function jobWithUnits(units: Record<string, unknown>[][], finished: number[]): Promise<{ ws: TestWorkspace; jobId: string }> {
  const ws = await createWorkspace();
  return { ws, jobId: await jobInWorkspace(ws.workspaceId, units, finished) };
}

/** A name of its own on the global setup's receiver; `fail` first requests are answered 500. */
export function receiverHook(fail = 0) {
  const name = crypto.randomUUID();
  return {
    url: `${env.TEST_WEBHOOK_RECEIVER_URL}/hooks/${name}?fail=${fail}`,
    received: async () => (await (await fetch(`${env.TEST_WEBHOOK_RECEIVER_URL}/received/${name}`)).json()) as ReceivedWebhook[],
  };
}

export async function receivedAtLeast(hook: ReturnType<typeof receiverHook>, count: number, timeout = 30_000): Promise<ReceivedWebhook[]> {
  return vi.waitUntil(
    async () => {
      const got = await hook.received();
      return got.length >= count ? got : null;
    },
    { timeout, interval: 100 },
  );
}
