import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { SimpleAuthLogin } from "../../../../contracts/task-unit";
import { hometaxDocuments } from "../../../../sandbox/hometax/ground-truth";
import { SIMPLE_AUTH_PEOPLE } from "../../../../sandbox/hometax/simple-auth-people";
import { addCredential, callJson, createWorkspace, receivedAtLeast, receiverHook } from "../../../support/workers/helpers";
import { harness } from "../../../support/workers/pipeline-harness";
import { executeMessage } from "../../../../worker/domain/pipeline/executor";

type Json = Record<string, any>;
const SCHEMA = "taxportal.tax-invoices.sales.v1";
const RANGE = { dateRangeStart: "2025-10-01", dateRangeEnd: "2025-10-31" };
const PHONE = `${env.SANDBOX_BASE_URL}/_sandbox/hometax/phone`;

/** The sandbox's phone as a test taps it: every standing request of this person approved or denied. */
async function tap(answer: "approve" | "deny", person: { name: string }): Promise<number> {
  const res = await fetch(`${PHONE}/${answer}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: person.name }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { answered: number }).answered;
}

/** A workspace of the person's business with their 간편인증 login on `provider`. */
async function simpleAuthWorkspace(personIndex: number, provider: SimpleAuthLogin["provider"]) {
  const person = SIMPLE_AUTH_PEOPLE[personIndex]!;
  const ws = await createWorkspace({ businessNumber: person.businessNumber });
  const login: SimpleAuthLogin = { authMethod: "SIMPLE_AUTH", name: person.name, phone: person.phone, birthDate: person.birthDate, provider, ...(provider === "pass" ? { carrier: "SKT" as const } : {}) };
  const credentialId = await addCredential(ws.workspaceId, "hometax", login);
  return { ws, person, credentialId };
}

const jobOf = async (key: string, id: string) => (await callJson<Json>(`/api/v1/data-jobs/${id}`, { key })).body;
const until = <T>(read: () => Promise<T>, check: (value: T) => void) =>
  vi.waitFor(async () => {
    const value = await read();
    check(value);
    return value;
  }, { timeout: 60_000, interval: 250 });

describe("a Hometax job on a 간편인증 login waits for its holder's phone", () => {
  it("says it waits (phase RUNNING, the app and until when) in the detail, the list and a webhook, then goes on by itself once approved", async () => {
    const { ws, person } = await simpleAuthWorkspace(1, "kakao");
    const hook = receiverHook();
    const endpoint = await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: ws.apiKey, json: { url: hook.url, events: ["data_job.awaiting_holder"] } });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const h = harness();
    const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "hometax", schema: SCHEMA, params: RANGE }, env: h.env });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The approval window is in the job's budget: maxWaitSeconds tells the truth.
    expect(created.body.maxWaitSeconds).toBeGreaterThanOrEqual(330 + 300);
    const running = h.drain();

    const waiting = await until(() => jobOf(ws.apiKey, created.body.id), (job) => expect(job.awaitingHolder).toBeDefined());
    expect(waiting).toMatchObject({ kind: "InProgress", phase: "RUNNING", awaitingHolder: { method: "SIMPLE_AUTH", provider: "kakao" } });
    const window = Date.parse(waiting.awaitingHolder.until) - Date.parse(waiting.awaitingHolder.since);
    expect(window).toBeGreaterThan(60_000);
    const listed = (await callJson<Json>("/api/v1/data-jobs?limit=5", { key: ws.apiKey })).body.items.find((item: Json) => item.id === created.body.id);
    expect(listed).toMatchObject({ kind: "InProgress", awaitingHolder: { provider: "kakao" } });
    const [delivered] = await receivedAtLeast(hook, 1);
    expect(JSON.parse(delivered!.body)).toMatchObject({ type: "data_job.awaiting_holder", data: { object: { id: created.body.id, awaitingHolder: { provider: "kakao" } } } });

    expect(await tap("approve", person)).toBe(1);
    await running;
    const done = await jobOf(ws.apiKey, created.body.id);
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded" });
    expect(done.awaitingHolder).toBeUndefined();
    const truth = hometaxDocuments(person.businessNumber, SCHEMA, { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd });
    expect(done.recordCount).toBe(truth.length);
    // Waiting spent none of the job's automatic resumptions.
    expect((await env.DB.prepare("SELECT attempt FROM jobs WHERE id = ?").bind(created.body.id).first<{ attempt: number }>())!.attempt).toBe(0);
  });

  it("runs two jobs created together on one approval, and the credential's next job on the kept login without ringing again", async () => {
    const { ws, person } = await simpleAuthWorkspace(1, "toss");
    const h = harness();
    const create = (schema: string) => callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "hometax", schema, params: RANGE }, env: h.env });
    const [first, second] = [await create(SCHEMA), await create("taxportal.tax-invoices.purchase.v1")];
    expect([first.status, second.status]).toEqual([201, 201]);
    const running = h.drain();
    await until(() => jobOf(ws.apiKey, first.body.id), (job) => expect(job.awaitingHolder).toBeDefined());
    expect(await tap("approve", person)).toBe(1);
    await running;
    for (const id of [first.body.id, second.body.id]) expect(await jobOf(ws.apiKey, id)).toMatchObject({ kind: "Succeeded" });
    expect(h.logins()).toBe(1);

    const later = harness();
    const third = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "hometax", schema: "taxportal.cash-receipts.sales.v1", params: RANGE }, env: later.env });
    await later.drain();
    expect(await jobOf(ws.apiKey, third.body.id)).toMatchObject({ kind: "Succeeded" });
    expect(later.logins()).toBe(0);
  });

  it("fails LOGIN_FAILED, not retryable, when the holder denies, so no automatic retry rings the phone again", async () => {
    const { ws, person, credentialId } = await simpleAuthWorkspace(0, "naver");
    const h = harness();
    const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "hometax", schema: SCHEMA, params: RANGE }, env: h.env });
    const running = h.drain();
    await until(() => jobOf(ws.apiKey, created.body.id), (job) => expect(job.awaitingHolder).toBeDefined());
    expect(await tap("deny", person)).toBe(1);
    await running;
    expect(await jobOf(ws.apiKey, created.body.id)).toMatchObject({ kind: "Failed", error: { code: "LOGIN_FAILED", retryable: false } });
    // A person who said no is not asked again by the next job: the credential waits for its holder to act.
    const row = await env.DB.prepare("SELECT invalid_reason FROM credentials WHERE id = ?").bind(credentialId).first<{ invalid_reason: string | null }>();
    expect(row!.invalid_reason).toBe("LOGIN_FAILED");
  });

  it("fails LOGIN_SECOND_FACTOR_REQUIRED, not retryable, when the request lapses unanswered, and keeps the credential for a later try", async () => {
    const { ws, credentialId } = await simpleAuthWorkspace(2, "kakao");
    const h = harness();
    const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "hometax", schema: SCHEMA, params: RANGE }, env: h.env });
    await h.drain();
    expect(await jobOf(ws.apiKey, created.body.id)).toMatchObject({ kind: "Failed", error: { code: "LOGIN_SECOND_FACTOR_REQUIRED", category: "CREDENTIAL", retryable: false } });
    // Not answering in time says nothing against the login itself: the next job may ask again.
    const row = await env.DB.prepare("SELECT status, invalid_reason FROM credentials WHERE id = ?").bind(credentialId).first<{ status: string; invalid_reason: string | null }>();
    expect(row).toEqual({ status: "ACTIVE", invalid_reason: null });
  });

  it("asks the phone again when the portal ends the session mid-job, and goes on from the unit it was on once approved", async () => {
    const { ws, person } = await simpleAuthWorkspace(0, "kakao");
    const range = { dateRangeStart: "2025-07-01", dateRangeEnd: "2025-12-31" };
    const h = harness();
    const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "hometax", schema: SCHEMA, params: range }, env: h.env });
    let asked = 0;
    // The phone answers each request as it comes: the first, and the one the lost session makes.
    const phone = (async () => {
      while (asked < 2) {
        const job = await jobOf(ws.apiKey, created.body.id);
        if (job.kind !== "InProgress") return;
        if (job.awaitingHolder && (await tap("approve", person)) > 0) asked++;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    // The queue run by hand: once the first unit is committed, the portal ends the login (its idle end, a logout elsewhere).
    let loggedOut = false;
    await h.plansSent();
    while (h.queued.length) {
      const message = h.queued.shift()!;
      const outcome = await executeMessage(h.deps, message);
      if (outcome.kind === "retry") h.queued.push(message);
      const units = await env.DB.prepare("SELECT completed_task_count AS n FROM jobs WHERE id = ?").bind(created.body.id).first<{ n: number }>();
      if (!loggedOut && units!.n === 1) {
        const ended = await fetch(`${PHONE}/logout`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ businessNumber: person.businessNumber }) });
        expect(((await ended.json()) as { ended: number }).ended).toBeGreaterThan(0);
        loggedOut = true;
      }
    }
    await phone;
    expect(loggedOut).toBe(true);
    expect(asked).toBe(2);
    const done = await jobOf(ws.apiKey, created.body.id);
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: hometaxDocuments(person.businessNumber, SCHEMA, { start: range.dateRangeStart, end: range.dateRangeEnd }).length });
    expect(h.logins()).toBe(2);
  });
});
