import type { AnsweredRequest } from "../worker/domain/request-logs/entry";
import { consumeRequestLogBatch } from "../worker/domain/request-logs/consumer";
import type { RequestLogMessage } from "../worker/domain/request-logs/messages";
import { recordRequest } from "../worker/domain/request-logs/record";

/**
 * The request log's write path without the API in front of it (bench/request-log.ts), since this machine cannot answer
 * the issue's 1,000 requests a second at all: POST /push hands the service's recordRequest (the middleware's own call,
 * worker/api/request-log.ts) entries of answered requests at a steady rate, and the queue's batches go to the service's
 * consumer, as worker/index.ts dispatches them. GET /rows counts what the consumer has written, its rows and the
 * requests they stand for (a key's 429s of a minute are one row counting them, entry.ts), and says when each of its
 * batches ran, which D1's rows cannot say (they carry the request's time, not the write's).
 */
type Env = { DB: D1Database; REQUEST_LOGS: Queue<RequestLogMessage> };

/** The consumer's deliveries so far: how many messages and entries each carried and when it began and ended. */
const deliveries: { messages: number; entries: number; startedAt: number; endedAt: number }[] = [];

/** How often the sender wakes to catch up with its schedule: 10 entries a tick at 1,000 a second. */
const TICK_MS = 10;
const WORKSPACE_ID = "0b5e7c1a-0000-4000-8000-000000000047";
const API_KEY_ID = "0b5e7c1a-0000-4000-8000-0000000000a1";
const JOB_BODY = JSON.stringify({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-03-31" } });
const CREDENTIAL_BODY = JSON.stringify({ providerCode: "sandbox.bank", label: "법인 주거래", fields: { loginId: "user_good", password: "pass_good" } });
const INVALID_ENVELOPE = {
  code: "INVALID_PARAM_FORMAT",
  message: "요청 값의 형식이 올바르지 않습니다.",
  requestId: "",
  fieldErrors: [{ field: "body.fields.password", code: "INVALID_PARAM_FORMAT", message: "비밀번호를 입력해 주세요." }],
};
const LIMITED_ENVELOPE = { code: "API_RATE_LIMITED", message: "요청 한도를 넘었습니다. 잠시 후 다시 시도해 주세요.", requestId: "" };

/** The n-th request of a partner's mix: mostly polls of a job, a list, a create with its key, a refused registration, a 429. */
function answered(n: number, startedAt: number): AnsweredRequest {
  const requestId = crypto.randomUUID();
  const common = { requestId, workspaceId: WORKSPACE_ID, apiKeyId: API_KEY_ID, apiKeyPrefix: "sk_live_4f", startedAt, latencyMs: 20 + (n % 180) };
  const none = { idempotencyKey: undefined, query: {}, bodyText: undefined, errorEnvelope: undefined, answerText: undefined };
  switch (n % 10) {
    case 6:
      return { ...common, ...none, method: "GET", path: "/api/v1/data-jobs", status: 200, query: { limit: ["20"], status: ["FAILED", "SUCCEEDED"] } };
    case 7:
      return { ...common, ...none, method: "POST", path: "/api/v1/data-jobs", status: 201, idempotencyKey: `nightly-${n}`, bodyText: Promise.resolve(JOB_BODY) };
    case 8:
      return { ...common, ...none, method: "POST", path: "/api/v1/credentials", status: 400, bodyText: Promise.resolve(CREDENTIAL_BODY), errorEnvelope: Promise.resolve({ ...INVALID_ENVELOPE, requestId }) };
    case 9:
      return { ...common, ...none, method: "GET", path: "/api/v1/data-jobs", status: 429, errorEnvelope: Promise.resolve({ ...LIMITED_ENVELOPE, requestId }) };
    default:
      return { ...common, ...none, method: "GET", path: `/api/v1/data-jobs/${crypto.randomUUID()}`, status: 200 };
  }
}

/**
 * Records `rate` × `seconds` entries on schedule: each tick makes up what the clock says is due, so a late tick does
 * not lower the rate. Answers once every entry's sendBatch has returned, with when the sending began and ended.
 */
async function push(env: Env, rate: number, seconds: number) {
  const total = rate * seconds;
  const startedAt = Date.now();
  const recording: Promise<void>[] = [];
  while (recording.length < total) {
    const due = Math.min(total, Math.ceil(((Date.now() - startedAt) * rate) / 1000));
    while (recording.length < due) recording.push(recordRequest(env.REQUEST_LOGS, answered(recording.length, Date.now())));
    await scheduler.wait(TICK_MS);
  }
  const lastRecordedAt = Date.now();
  await Promise.all(recording);
  return { sent: total, startedAt, lastRecordedAt, sentAt: Date.now() };
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/push") return Response.json(await push(env, Number(url.searchParams.get("rate")), Number(url.searchParams.get("seconds"))));
    if (url.pathname === "/rows") {
      const counted = await env.DB.prepare("SELECT count(*) AS rows, coalesce(sum(repeat_count), 0) AS logged FROM request_logs").first<{ rows: number; logged: number }>();
      return Response.json({ rows: counted?.rows ?? 0, logged: counted?.logged ?? 0, deliveries });
    }
    return new Response("request log bench");
  },
  async queue(batch, env) {
    const startedAt = Date.now();
    await consumeRequestLogBatch(batch, env.DB);
    deliveries.push({ messages: batch.messages.length, entries: batch.messages.reduce((sum, message) => sum + message.body.length, 0), startedAt, endedAt: Date.now() });
  },
} satisfies ExportedHandler<Env, RequestLogMessage>;
