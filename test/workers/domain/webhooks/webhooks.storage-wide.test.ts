import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { signWebhook, verifyWebhook, WEBHOOK_EVENT_TYPES, type WebhookEvent, WebhookSignatureError } from "../../../../client/src/webhooks";
import worker from "../../../../worker/index";
import { createJob } from "../../../../worker/domain/jobs/create";
import { addCredential, call, callJson, createWorkspace, receivedAtLeast, receiverHook, type TestWorkspace, TX_JOB, withCapturedQueue } from "../../../support/workers/helpers";
import { encryptForService, hostedUiHeaders } from "../../../support/workers/registration-envelope";
import { warnExpiringCertificates } from "../../../../worker/domain/credentials/expiry-warnings";
import { issueJointCertificate } from "../../../../sandbox/certificates/issue";
import { Webhook, WebhookVerificationError } from "standardwebhooks";

const DAY = 86_400_000;

type Json = Record<string, any>;

const SESSION = { registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }], originAllowlist: ["https://partner.example"], clientReferenceId: "user-7" };
const LOGIN = { loginId: "user_good", password: "pass_good" };

async function createEndpoint(ws: TestWorkspace, body: Json) {
  const created = await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: ws.apiKey, json: body });
  if (created.status !== 201) throw new Error(`endpoint not created: ${JSON.stringify(created.body)}`);
  return created.body;
}

/** A workspace whose endpoint on the receiver listens to every event. */
async function listening(fail = 0, workspace?: TestWorkspace) {
  const ws = workspace ?? (await createWorkspace({ businessNumber: "1208800767" }));
  const hook = receiverHook(fail);
  const endpoint = await createEndpoint(ws, { url: hook.url, events: WEBHOOK_EVENT_TYPES });
  return { ws, hook, endpoint, secret: endpoint.secret as string };
}

async function issueSession(ws: TestWorkspace) {
  const issued = await callJson<Json>("/api/v1/registration-sessions", { method: "POST", key: ws.apiKey, json: SESSION });
  return issued.body as { sessionId: string; sessionToken: string };
}

const cancelSession = (ws: TestWorkspace, id: string) => callJson<Json>(`/api/v1/registration-sessions/${id}/cancel`, { method: "POST", key: ws.apiKey });

/** The endpoint's delivery log once `ready` holds for it (retries are a second or two apart here). */
function logWhen(ws: TestWorkspace, endpointId: string, ready: (log: Json[]) => boolean): Promise<Json[]> {
  return vi.waitUntil(
    async () => {
      const log = await deliveries(ws, endpointId);
      return ready(log) ? log : null;
    },
    { timeout: 80_000, interval: 100 },
  );
}

async function deliveries(ws: TestWorkspace, endpointId: string): Promise<Json[]> {
  const log = await callJson<Json>(`/api/v1/webhook-endpoints/${endpointId}/deliveries`, { key: ws.apiKey });
  expect(log.status).toBe(200);
  return log.body.items;
}

async function waitForJob(ws: TestWorkspace, id: string): Promise<Json> {
  return vi.waitUntil(
    async () => {
      const job = await callJson<Json>(`/api/v1/data-jobs/${id}`, { key: ws.apiKey });
      return job.body.kind === "InProgress" ? null : job.body;
    },
    { timeout: 180_000, interval: 200 },
  );
}

describe("webhook endpoints API", () => {
  it("creates an endpoint showing its secret once, lists, shows, updates and deletes it", async () => {
    const ws = await createWorkspace();
    const created = await callJson<Json>("/api/v1/webhook-endpoints", {
      method: "POST",
      key: ws.apiKey,
      json: { url: "https://hooks.partner.example/collect", events: ["data_job.succeeded"], description: "운영" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: "https://hooks.partner.example/collect", events: ["data_job.succeeded"], description: "운영", previousSecretExpiresAt: null });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const stored = await env.DB.prepare("SELECT * FROM webhook_endpoints WHERE id = ?").bind(created.body.id).first<Json>();
    expect(JSON.stringify(stored)).not.toContain(created.body.secret);

    const shown = await callJson<Json>(`/api/v1/webhook-endpoints/${created.body.id}`, { key: ws.apiKey });
    expect(shown.body).toEqual({ ...created.body, secret: undefined });
    expect(shown.body).not.toHaveProperty("secret");

    const second = await createEndpoint(ws, { url: "https://other.partner.example/hook", events: ["data_job.failed"] });
    const firstPage = await callJson<Json>("/api/v1/webhook-endpoints?limit=1", { key: ws.apiKey });
    expect(firstPage.body.items.map((e: Json) => e.id)).toEqual([second.id]);
    const nextPage = await callJson<Json>(`/api/v1/webhook-endpoints?limit=1&cursor=${firstPage.body.nextCursor}`, { key: ws.apiKey });
    expect(nextPage.body).toMatchObject({ items: [{ id: created.body.id }], nextCursor: null });
    expect(JSON.stringify([firstPage.body, nextPage.body])).not.toContain("whsec_");

    const updated = await callJson<Json>(`/api/v1/webhook-endpoints/${created.body.id}`, {
      method: "PATCH",
      key: ws.apiKey,
      json: { events: ["data_job.failed", "registration_session.consumed"], description: null },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ url: "https://hooks.partner.example/collect", events: ["data_job.failed", "registration_session.consumed"], description: null });

    expect((await call(`/api/v1/webhook-endpoints/${created.body.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    const gone = await callJson<Json>(`/api/v1/webhook-endpoints/${created.body.id}`, { key: ws.apiKey });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("RESOURCE_NOT_FOUND");
  });

  it("answers 404 RESOURCE_NOT_FOUND for another workspace's endpoint, on every operation", async () => {
    const owner = await createWorkspace();
    const stranger = await createWorkspace();
    const endpoint = await createEndpoint(owner, { url: "https://hooks.partner.example/a", events: ["data_job.failed"] });
    const base = `/api/v1/webhook-endpoints/${endpoint.id}`;
    for (const [path, init] of [
      [base, {}],
      [base, { method: "PATCH", json: { description: "x" } }],
      [base, { method: "DELETE" }],
      [`${base}/rotate-secret`, { method: "POST" }],
      [`${base}/deliveries`, {}],
      [`${base}/deliveries/${crypto.randomUUID()}/replay`, { method: "POST" }],
    ] as const) {
      const res = await callJson<Json>(path, { ...init, key: stranger.apiKey });
      expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ code: "RESOURCE_NOT_FOUND", message: expect.stringMatching(/웹훅/) });
    }
    expect((await callJson<Json>(base, { key: owner.apiKey })).status).toBe(200);
  });

  it.each([
    ["plain http", "http://hooks.partner.example/a"],
    ["another scheme", "ftp://hooks.partner.example/a"],
    ["no URL at all", "hooks.partner.example/a"],
    ["credentials in the URL", "https://user:pass@hooks.partner.example/a"],
    ["localhost", "https://localhost/a"],
    ["a .localhost name", "https://api.localhost/a"],
    ["a name without a dot", "https://intranet/a"],
    ["an .internal name", "https://metadata.google.internal/a"],
    ["IPv4 loopback", "https://127.0.0.1/a"],
    ["IPv4 loopback written as a number", "https://2130706433/a"],
    ["the unspecified IPv4 address", "https://0.0.0.0/a"],
    ["10/8", "https://10.1.2.3/a"],
    ["172.16/12", "https://172.20.0.1/a"],
    ["192.168/16", "https://192.168.0.10/a"],
    ["link-local (cloud metadata)", "https://169.254.169.254/latest/meta-data"],
    ["shared address space", "https://100.64.0.1/a"],
    ["multicast", "https://224.0.0.1/a"],
    ["reserved", "https://240.0.0.1/a"],
    ["IPv6 loopback", "https://[::1]/a"],
    ["IPv6 link-local", "https://[fe80::1]/a"],
    ["IPv6 unique local", "https://[fd12:3456::1]/a"],
    ["IPv4-mapped IPv6 loopback", "https://[::ffff:127.0.0.1]/a"],
    ["IPv6 documentation", "https://[2001:db8::1]/a"],
  ])("refuses %s with PARTNER_WEBHOOK_URL_INVALID where local URLs are not allowed (production)", async (_name, url) => {
    const ws = await createWorkspace();
    const production = { ...env, WEBHOOK_ALLOW_LOCAL_URLS: undefined };
    const res = await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: ws.apiKey, json: { url, events: ["data_job.failed"] }, env: production });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "PARTNER_WEBHOOK_URL_INVALID", message: expect.stringMatching(/[가-힣]/) });
    expect(res.body.fieldErrors).toEqual([{ field: "body.url", code: "PARTNER_WEBHOOK_URL_INVALID", message: res.body.message }]);
  });

  it("accepts public https names and addresses on 443 or 8443, and refuses a private one or another port on update too", async () => {
    const ws = await createWorkspace();
    const production = { ...env, WEBHOOK_ALLOW_LOCAL_URLS: undefined };
    for (const url of ["https://hooks.partner.example/a", "https://8.8.8.8/hook", "https://[2606:4700:4700::1111]/hook", "https://hooks.partner.example:8443/a?x=1", "https://hooks.partner.example:443/c"]) {
      const res = await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: ws.apiKey, json: { url, events: ["data_job.failed"] }, env: production });
      expect(res.status, url).toBe(201);
    }
    for (const url of ["https://hooks.partner.example:8080/a", "https://8.8.8.8:6379/", "https://hooks.partner.example:22/a"]) {
      const res = await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: ws.apiKey, json: { url, events: ["data_job.failed"] }, env: production });
      expect(res.body, url).toMatchObject({ code: "PARTNER_WEBHOOK_URL_INVALID", fieldErrors: [{ field: "body.url" }] });
      expect(res.body.message).toMatch(/443/);
    }
    const endpoint = await createEndpoint(ws, { url: "https://hooks.partner.example/b", events: ["data_job.failed"] });
    const moved = await callJson<Json>(`/api/v1/webhook-endpoints/${endpoint.id}`, { method: "PATCH", key: ws.apiKey, json: { url: "https://10.0.0.1/b" } });
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe("PARTNER_WEBHOOK_URL_INVALID");
  });

  it("lets the local stack's configuration reach this machine only: http://127.0.0.1 and localhost, never other private addresses", async () => {
    const ws = await createWorkspace();
    for (const url of ["http://127.0.0.1:9/a", "http://localhost:9/a", "https://[::1]:9/a"]) {
      expect((await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: ws.apiKey, json: { url, events: ["data_job.failed"] } })).status, url).toBe(201);
    }
    for (const url of ["http://10.0.0.1/a", "http://hooks.partner.example/a", "https://192.168.1.1/a"]) {
      expect((await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: ws.apiKey, json: { url, events: ["data_job.failed"] } })).body.code, url).toBe("PARTNER_WEBHOOK_URL_INVALID");
    }
  });

  it("refuses no events, unknown events and duplicates with INVALID_PARAM_FORMAT", async () => {
    const ws = await createWorkspace();
    for (const events of [[], ["data_job.started"], ["data_job.failed", "data_job.failed"]]) {
      const res = await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: ws.apiKey, json: { url: "https://hooks.partner.example/a", events } });
      expect(res.status, JSON.stringify(events)).toBe(400);
      expect(res.body.code).toBe("INVALID_PARAM_FORMAT");
      expect(res.body.fieldErrors[0].field).toMatch(/^body\.events/);
    }
  });
});

describe("events", () => {
  it("sends data_job.succeeded, signed, with the job as GET /data-jobs/{id} shows it", async () => {
    const { ws, hook, secret } = await listening();
    await addCredential(ws.workspaceId);
    const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" } });
    const job = await waitForJob(ws, created.body.id);
    expect(job.kind).toBe("Succeeded");
    const [request] = await receivedAtLeast(hook, 1);
    const event = await verifyWebhook<WebhookEvent>(request!.body, request!.headers["x-svc-signature"], secret);
    expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: "data_job.succeeded", data: { object: job } });
    expect(Date.parse(event.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(request!.headers).toMatchObject({ "x-svc-event-id": event.id, "x-svc-event-type": "data_job.succeeded", "content-type": "application/json" });
    // Exactly once: nothing else happened to the job.
    await new Promise((r) => setTimeout(r, 500));
    expect(await hook.received()).toHaveLength(1);
  });

  it("sends data_job.failed for a job failing in the pipeline and for one born Failed", async () => {
    const { ws, hook, secret } = await listening();
    await addCredential(ws.workspaceId, "sandbox.bank", { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_wrong" });
    const loginFails = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" } });
    const failed = await waitForJob(ws, loginFails.body.id);
    expect(failed.kind).toBe("Failed");
    const noCredential = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.card", schema: "card.cards.corp.v1" } });
    expect(noCredential.body).toMatchObject({ kind: "Failed", error: { code: "CREDENTIAL_NOT_FOUND" } });
    const got = await receivedAtLeast(hook, 2);
    const events = await Promise.all(got.map((r) => verifyWebhook<WebhookEvent<Json>>(r.body, r.headers["x-svc-signature"], secret)));
    expect(events.map((e) => e.type)).toEqual(["data_job.failed", "data_job.failed"]);
    expect(Object.fromEntries(events.map((e) => [e.data.object.id, e.data.object]))).toEqual({ [failed.id]: failed, [noCredential.body.id]: noCredential.body });
  });

  it("sends registration_session.consumed, .cancelled, .locked and, once the cron finds it, .expired", async () => {
    const { ws, hook, secret } = await listening();
    const consumed = await issueSession(ws);
    const session = (await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(consumed.sessionToken) })).body;
    const envelope = await encryptForService(session.encryptionKey, session.sessionId, LOGIN);
    const submitted = await callJson<Json>("/connect/api/registrations", {
      method: "POST",
      headers: hostedUiHeaders(consumed.sessionToken),
      json: { kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank", envelope },
    });
    expect(submitted.status).toBe(201);

    const cancelled = await issueSession(ws);
    expect((await cancelSession(ws, cancelled.sessionId)).body.status).toBe("CANCELLED");

    const locked = await issueSession(ws);
    const lockedKey = (await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(locked.sessionToken) })).body.encryptionKey;
    const wrongKid = { ...(await encryptForService(lockedKey, locked.sessionId, LOGIN)), kid: "old" };
    for (let i = 0; i < 5; i++) {
      await callJson<Json>("/connect/api/registrations", { method: "POST", headers: hostedUiHeaders(locked.sessionToken), json: { kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank", envelope: wrongKid } });
    }

    const expired = await issueSession(ws);
    await env.DB.prepare("UPDATE registration_sessions SET expires_at = ? WHERE id = ?").bind(Date.now() - 1, expired.sessionId).run();
    await worker.scheduled(createScheduledController(), env);
    await worker.scheduled(createScheduledController(), env);

    const got = await receivedAtLeast(hook, 4);
    await new Promise((r) => setTimeout(r, 500));
    const events = await Promise.all((await hook.received()).map((r) => verifyWebhook<WebhookEvent<Json>>(r.body, r.headers["x-svc-signature"], secret)));
    expect(got.length).toBe(4);
    const bySession = Object.fromEntries(events.map((e) => [e.data.object.sessionId, e]));
    expect(bySession[consumed.sessionId]).toMatchObject({ type: "registration_session.consumed", data: { object: { status: "CONSUMED", clientReferenceId: "user-7", credentialId: expect.any(String) } } });
    expect(bySession[cancelled.sessionId]).toMatchObject({ type: "registration_session.cancelled", data: { object: { status: "CANCELLED" } } });
    expect(bySession[locked.sessionId]).toMatchObject({ type: "registration_session.locked", data: { object: { status: "LOCKED", attempts: 5 } } });
    expect(bySession[expired.sessionId]).toMatchObject({ type: "registration_session.expired", data: { object: { status: "EXPIRED" } } });
    const shown = await callJson<Json>(`/api/v1/registration-sessions/${consumed.sessionId}`, { key: ws.apiKey });
    expect(bySession[consumed.sessionId]!.data.object).toEqual(shown.body);
  });

  it("warns of a certificate's end 30, 7 and 1 days ahead, each warning once, as credential.expiring", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const hook = receiverHook();
    const { secret } = await createEndpoint(ws, { url: hook.url, events: ["credential.expiring"] });
    const files = await issueJointCertificate({ idn: "1208800767", notAfter: new Date(Date.now() + 40 * DAY) });
    const credential = (await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", fields: { certificate: files.certificate, privateKey: files.privateKey, password: files.password } } })).body;
    const before = (days: number) => Date.parse(credential.certificate.notAfter) - days * DAY;
    const warnedAt: number[] = [];
    for (const [days, expected] of [[31, 0], [29, 1], [28, 0], [6.5, 1], [6, 0], [0.5, 1], [-2, 0]] as const) {
      expect([days, await warnExpiringCertificates(env, before(days))]).toEqual([days, expected]);
      if (expected) warnedAt.push(days);
    }
    const got = await receivedAtLeast(hook, 3);
    await new Promise((r) => setTimeout(r, 500));
    expect((await hook.received()).length).toBe(got.length);
    const events = await Promise.all(got.map((r) => verifyWebhook<WebhookEvent<Json>>(r.body, r.headers["x-svc-signature"], secret)));
    expect(events.map((e) => [e.type, e.data.object.id, e.data.object.certificate.notAfter])).toEqual(warnedAt.map(() => ["credential.expiring", credential.id, credential.certificate.notAfter]));
  });

  it("sends only the events an endpoint subscribed to, and none to other workspaces", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const cancelledOnly = receiverHook();
    const consumedOnly = receiverHook();
    await createEndpoint(ws, { url: cancelledOnly.url, events: ["registration_session.cancelled"] });
    await createEndpoint(ws, { url: consumedOnly.url, events: ["registration_session.consumed"] });
    const bystander = await listening();
    const session = await issueSession(ws);
    await cancelSession(ws, session.sessionId);
    await receivedAtLeast(cancelledOnly, 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await consumedOnly.received()).toEqual([]);
    expect(await bystander.hook.received()).toEqual([]);
  });
});

describe("a partner's endpoints", () => {
  it("hear of their businesses' events, and of the sessions and unfinished jobs a revocation ends", async () => {
    const partner = await createWorkspace({ isPartner: true });
    const business = "1208800767";
    expect((await callJson<Json>("/api/v1/connections", { method: "POST", key: partner.apiKey, json: { businessNumber: business } })).status).toBe(201);
    const connection = (await callJson<Json>("/api/v1/connections", { key: partner.apiKey })).body.items[0];
    const { workspace_id: businessWorkspace } = (await env.DB.prepare("SELECT workspace_id FROM connections WHERE id = ?").bind(connection.id).first<{ workspace_id: string }>())!;
    const { hook, secret } = await listening(0, partner);
    const asBusiness = { key: partner.apiKey, headers: { "X-SVC-Business": business } };
    const cancelled = (await callJson<Json>("/api/v1/registration-sessions", { method: "POST", ...asBusiness, json: SESSION })).body;
    await callJson<Json>(`/api/v1/registration-sessions/${cancelled.sessionId}/cancel`, { method: "POST", ...asBusiness });
    const pending = (await callJson<Json>("/api/v1/registration-sessions", { method: "POST", ...asBusiness, json: SESSION })).body;
    await addCredential(businessWorkspace);
    // Left PENDING (its planning message is captured, not run) until the revocation fails it.
    const job = await createJob(withCapturedQueue().env, businessWorkspace, TX_JOB);

    expect((await callJson<Json>(`/api/v1/connections/${connection.id}`, { method: "DELETE", key: partner.apiKey })).status).toBe(200);

    await receivedAtLeast(hook, 3);
    await new Promise((r) => setTimeout(r, 500));
    const events = await Promise.all((await hook.received()).map((r) => verifyWebhook<WebhookEvent<Json>>(r.body, r.headers["x-svc-signature"], secret)));
    expect(events.map((e) => [e.type, e.data.object.sessionId ?? e.data.object.id]).sort()).toEqual(
      [
        ["data_job.failed", job.id],
        ["registration_session.cancelled", cancelled.sessionId],
        ["registration_session.cancelled", pending.sessionId],
      ].sort(),
    );
    expect(events.find((e) => e.type === "data_job.failed")!.data.object).toMatchObject({ kind: "Failed", error: { code: "CREDENTIAL_NOT_FOUND" } });
  });
});

describe("signatures", () => {
  it("verifies with the endpoint's secret and throws WebhookSignatureError for a changed body, another secret, an old timestamp or no header", async () => {
    const { ws, hook, secret } = await listening();
    await cancelSession(ws, (await issueSession(ws)).sessionId);
    const [request] = await receivedAtLeast(hook, 1);
    const header = request!.headers["x-svc-signature"]!;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(Math.abs(Number(/^t=(\d+)/.exec(header)![1]) - request!.at / 1000)).toBeLessThan(5);
    await expect(verifyWebhook(request!.body, header, secret)).resolves.toMatchObject({ type: "registration_session.cancelled" });

    // Old and future timestamps measured from the signing time itself: the delivery may arrive seconds after it.
    const signedAt = Number(/^t=(\d+)/.exec(header)![1]) * 1000;
    const refusals = await Promise.all(
      [
        verifyWebhook(request!.body.replace("CANCELLED", "CONSUMED"), header, secret),
        verifyWebhook(request!.body, header, "whsec_someone_else"),
        verifyWebhook(request!.body, header, secret, { now: signedAt + 301_000 }),
        verifyWebhook(request!.body, header, secret, { now: signedAt - 301_000 }),
        verifyWebhook(request!.body, undefined, secret),
        verifyWebhook(request!.body, "v1=abc", secret),
      ].map((refusal) => refusal.catch((e: unknown) => e)),
    );
    for (const error of refusals) {
      expect(error).toBeInstanceOf(WebhookSignatureError);
      expect(error).toMatchObject({ code: "WEBHOOK_SIGNATURE_INVALID" });
    }
    await expect(verifyWebhook(request!.body, header, secret, { now: request!.at + 3_000_000, toleranceSeconds: 3600 })).resolves.toBeTruthy();
  });

  it("signs every delivery the Standard Webhooks way too, which that standard's own library verifies", async () => {
    const { ws, hook, secret } = await listening();
    await cancelSession(ws, (await issueSession(ws)).sessionId);
    const [request] = await receivedAtLeast(hook, 1);
    expect(request!.headers["webhook-id"]).toBe(request!.headers["x-svc-event-id"]);
    expect(request!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(request!.body, request!.headers)).toMatchObject({ type: "registration_session.cancelled" });
    expect(() => new Webhook(secret).verify(request!.body.replace("CANCELLED", "CONSUMED"), request!.headers)).toThrow(WebhookVerificationError);
    const stranger = `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
    expect(() => new Webhook(stranger).verify(request!.body, request!.headers)).toThrow(WebhookVerificationError);
  });

  it("never signs with a sealed secret copied from another endpoint: the attempt fails and is logged, nothing is sent", async () => {
    const { ws, hook, endpoint } = await listening();
    const other = await createEndpoint(ws, { url: "https://hooks.partner.example/other", events: ["data_job.failed"] });
    const own = (await env.DB.prepare("SELECT sealed_secret AS s FROM webhook_endpoints WHERE id = ?").bind(endpoint.id).first<{ s: string }>())!.s;
    await env.DB.prepare("UPDATE webhook_endpoints SET sealed_secret = (SELECT sealed_secret FROM webhook_endpoints WHERE id = ?1) WHERE id = ?2")
      .bind(other.id, endpoint.id)
      .run();
    try {
      await cancelSession(ws, (await issueSession(ws)).sessionId);
      const [delivery] = await logWhen(ws, endpoint.id, (l) => l[0]?.attempts.length >= 1);
      expect(delivery!.attempts[0]).toMatchObject({ responseStatus: null, error: expect.stringMatching(/^could not sign the delivery/) });
      expect(await hook.received()).toEqual([]);
    } finally {
      // No secret left that the vault cannot open: the vault rotation's test shares this storage and counts them.
      await env.DB.prepare("UPDATE webhook_endpoints SET sealed_secret = ? WHERE id = ?").bind(own, endpoint.id).run();
    }
  });

  it("signs exactly as documented: HMAC-SHA256 over `<t>.<body>`, lowercase hex", async () => {
    const header = await signWebhook('{"a":1}', "whsec_test", 1700000000);
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("whsec_test"), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode('1700000000.{"a":1}')));
    expect(header).toBe(`t=1700000000,v1=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`);
  });

  it("signs with both secrets for 24 hours after a rotation, so a receiver holding either verifies", async () => {
    const { ws, hook, endpoint, secret: oldSecret } = await listening();
    const rotated = await callJson<Json>(`/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: "POST", key: ws.apiKey });
    expect(rotated.status).toBe(201);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(oldSecret);
    expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    await cancelSession(ws, (await issueSession(ws)).sessionId);
    const [request] = await receivedAtLeast(hook, 1);
    const header = request!.headers["x-svc-signature"]!;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    await expect(verifyWebhook(request!.body, header, rotated.body.secret)).resolves.toBeTruthy();
    await expect(verifyWebhook(request!.body, header, oldSecret)).resolves.toBeTruthy();
    expect(request!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    for (const secret of [rotated.body.secret, oldSecret]) expect(new Webhook(secret).verify(request!.body, request!.headers)).toBeTruthy();

    // Once the overlap is over, only the new secret signs.
    await env.DB.prepare("UPDATE webhook_endpoints SET previous_secret_expires_at = ? WHERE id = ?").bind(Date.now() - 1, endpoint.id).run();
    await cancelSession(ws, (await issueSession(ws)).sessionId);
    const later = (await receivedAtLeast(hook, 2))[1]!;
    expect(later.headers["x-svc-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await expect(verifyWebhook(later.body, later.headers["x-svc-signature"], oldSecret)).rejects.toBeInstanceOf(WebhookSignatureError);
    expect(() => new Webhook(oldSecret).verify(later.body, later.headers)).toThrow(WebhookVerificationError);
    await expect(verifyWebhook(later.body, later.headers["x-svc-signature"], rotated.body.secret)).resolves.toBeTruthy();
  });
});

describe("delivery, retries and the delivery log", () => {
  it("retries while the receiver answers 500, with the same event, and logs every attempt until it succeeds", async () => {
    const { ws, hook, endpoint, secret } = await listening(2);
    await cancelSession(ws, (await issueSession(ws)).sessionId);
    const got = await receivedAtLeast(hook, 3);
    expect(got.map((r) => r.answered)).toEqual([500, 500, 200]);
    expect(new Set(got.map((r) => r.headers["x-svc-event-id"])).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    for (const r of got) await expect(verifyWebhook(r.body, r.headers["x-svc-signature"], secret)).resolves.toBeTruthy();
    // Backoff: each retry waits (the test schedule starts at about a second).
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(400);

    const [delivery] = await logWhen(ws, endpoint.id, (l) => l[0]?.status === "SUCCEEDED");
    expect(delivery).toMatchObject({ eventType: "registration_session.cancelled", eventId: got[0]!.headers["x-svc-event-id"], attemptCount: 3, nextAttemptAt: null, payload: got[0]!.body });
    expect(delivery!.attempts.map((a: Json) => a.responseStatus)).toEqual([500, 500, 200]);
    // The status, never the receiver's words: its answer's body is not stored.
    expect(delivery!.attempts[0].error).toBe("HTTP 500");
    expect(delivery!.attempts[2].error).toBeNull();
    expect(Date.parse(delivery!.attempts[0].nextAttemptAt)).toBeGreaterThan(Date.parse(delivery!.attempts[0].at));
    expect(delivery!.attempts[2].nextAttemptAt).toBeNull();
    for (const attempt of delivery!.attempts) expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("checks the stored URL again before every attempt, and sends nothing to one the rules refuse", async () => {
    const { ws, hook, endpoint } = await listening();
    // Written around the API, as a row stored before a rule existed would be.
    await env.DB.prepare("UPDATE webhook_endpoints SET url = ? WHERE id = ?").bind("https://hooks.partner.example:6379/a", endpoint.id).run();
    await cancelSession(ws, (await issueSession(ws)).sessionId);
    const [delivery] = await logWhen(ws, endpoint.id, (l) => (l[0]?.attempts.length ?? 0) > 0);
    expect(delivery!.attempts[0]).toMatchObject({ responseStatus: null, error: expect.stringMatching(/^refused: .*443/) });
    expect(await hook.received()).toEqual([]);
  });

  it("logs a network error, and stops for good once the retry window has closed", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    // Nothing listens on port 9 (discard): every attempt fails without an HTTP answer.
    const endpoint = await createEndpoint(ws, { url: "http://127.0.0.1:9/nobody", events: ["registration_session.cancelled"] });
    await cancelSession(ws, (await issueSession(ws)).sessionId);
    const [first] = await logWhen(ws, endpoint.id, (l) => l[0]?.attempts.length >= 1);
    expect(first).toMatchObject({ status: "PENDING", nextAttemptAt: expect.any(String) });
    expect(first!.attempts[0]).toMatchObject({ responseStatus: null, error: expect.any(String) });
    await env.DB.prepare("UPDATE webhook_deliveries SET retry_until = ? WHERE id = ?").bind(Date.now(), first!.id).run();
    const [final] = await logWhen(ws, endpoint.id, (l) => l[0]?.status === "FAILED");
    expect(final).toMatchObject({ status: "FAILED", nextAttemptAt: null });
    expect(final!.attempts.length).toBeGreaterThanOrEqual(2);
  });

  it("replays a delivery as a new attempt of the same event", async () => {
    const { ws, hook, endpoint, secret } = await listening();
    await cancelSession(ws, (await issueSession(ws)).sessionId);
    const [original] = await receivedAtLeast(hook, 1);
    const [delivery] = await logWhen(ws, endpoint.id, (l) => l[0]?.status === "SUCCEEDED");
    const replay = await callJson<Json>(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery!.id}/replay`, { method: "POST", key: ws.apiKey });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ id: delivery!.id, status: "PENDING" });
    const again = (await receivedAtLeast(hook, 2))[1]!;
    expect(again.body).toBe(original!.body);
    expect(again.headers["x-svc-event-id"]).toBe(original!.headers["x-svc-event-id"]);
    await expect(verifyWebhook(again.body, again.headers["x-svc-signature"], secret)).resolves.toBeTruthy();
    const [replayed] = await logWhen(ws, endpoint.id, (l) => l[0]?.attemptCount === 2 && l[0]?.status === "SUCCEEDED");
    expect(replayed!.attempts.map((a: Json) => a.responseStatus)).toEqual([200, 200]);

    const unknown = await callJson<Json>(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${crypto.randomUUID()}/replay`, { method: "POST", key: ws.apiKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("RESOURCE_NOT_FOUND");
  });

  it("sends a delivery whose queue message was lost once the cron finds it overdue", async () => {
    const { ws, hook, endpoint, secret } = await listening();
    const session = await issueSession(ws);
    const queueDown = { ...env, WEBHOOKS: { send: async () => Promise.reject(new Error("queue down")), sendBatch: async () => Promise.reject(new Error("queue down")) } as unknown as Queue };
    const cancelled = await callJson<Json>(`/api/v1/registration-sessions/${session.sessionId}/cancel`, { method: "POST", key: ws.apiKey, env: queueDown });
    // The state change stands although its event could not be queued.
    expect(cancelled.body.status).toBe("CANCELLED");
    const [stuck] = await deliveries(ws, endpoint.id);
    expect(stuck).toMatchObject({ status: "PENDING", attemptCount: 0 });
    await worker.scheduled(createScheduledController(), env);
    await new Promise((r) => setTimeout(r, 500));
    expect(await hook.received()).toEqual([]);

    await env.DB.prepare("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?").bind(Date.now() - 16 * 60_000, stuck!.id).run();
    await worker.scheduled(createScheduledController(), env);
    const [delivered] = await receivedAtLeast(hook, 1);
    await expect(verifyWebhook(delivered!.body, delivered!.headers["x-svc-signature"], secret)).resolves.toMatchObject({ type: "registration_session.cancelled" });
    await logWhen(ws, endpoint.id, (l) => l[0]?.status === "SUCCEEDED");
  });

  it("sends nothing more for a deleted endpoint", async () => {
    const { ws, hook, endpoint } = await listening(1000);
    await cancelSession(ws, (await issueSession(ws)).sessionId);
    await receivedAtLeast(hook, 1);
    expect((await call(`/api/v1/webhook-endpoints/${endpoint.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    const count = (await hook.received()).length;
    await new Promise((r) => setTimeout(r, 3000));
    expect((await hook.received()).length).toBeLessThanOrEqual(count + 1);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?").bind(endpoint.id).first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });
});
