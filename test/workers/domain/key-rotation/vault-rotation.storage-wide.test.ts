import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { LoginCredential } from "../../../../contracts/task-unit";
import { openActiveCredential } from "../../../../worker/domain/credentials/job-credential";
import { createEndpoint, endpointById } from "../../../../worker/domain/webhooks/endpoints";
import { signingSecrets } from "../../../../worker/domain/webhooks/secrets";
import { database } from "../../../../worker/platform/database/client";
import { operators } from "../../../../worker/domain/operators/tables";
import { operatorRecord, totpBinding } from "../../../../worker/domain/operators/enrol";
import { openText, sealCredential } from "../../../../worker/domain/vault/envelope";
import { keyringEntries, withNewVersion, withoutUnused } from "../../../../worker/domain/vault/keyring";
import { REWRAP_BATCH, rewrapStep } from "../../../../worker/domain/key-rotation/rewrap";
import { REWRAP_SETTLE_MS } from "../../../../worker/domain/key-rotation/walks";
import { meteredEnv, takeUsage } from "../../../../worker/platform/metering";
import { AwsClient } from "aws4fetch";
import { addPaymentMethod } from "../../../../worker/domain/billing/payment-methods";
import { portOneGateway } from "../../../../worker/domain/billing/portone";
import { setOpenBankingKeys } from "../../../../worker/domain/partners/open-banking-keys";
import { renewSubscriptions } from "../../../../worker/domain/billing/renewal";
import { deliverJob } from "../../../../worker/domain/deliveries/deliver";
import { createRoute, findRouteById } from "../../../../worker/domain/deliveries/store";
import { createJob } from "../../../../worker/domain/jobs/create";
import { findJobById } from "../../../../worker/domain/jobs/store";
import { resultUnits } from "../../../../worker/domain/jobs/results-rows";
import { fileReport, findReport, reportPage } from "../../../../worker/domain/reports/store";
import { type SealedVersionCount, sealedVersionsQueries } from "../../../../scripts/sealed-columns";
import { addCredential, callJson, createWorkspace, withCapturedQueue } from "../../../support/workers/helpers";
import { harness, jobRow } from "../../../support/workers/pipeline-harness";

const OLD = env.VAULT_MASTER_KEY;
const NEW_KEY = `v2:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
const ROTATING = `${OLD},${NEW_KEY}`;
/** The keyring once the old key is retired: only what the rotation moved opens with it. */
const RETIRED = NEW_KEY;
const PROVIDERS = ["sandbox.bank", "sandbox.card", "sandbox.taxportal", "hometax"];
const CRASH_AFTER = 300;
const NONE_UNREADABLE = { credentials: 0, webhook_endpoints: 0, operators: 0, delivery_routes: 0, payment_methods: 0, failure_reports: 0, partner_open_banking_keys: 0 };

/** A D1 that fails every write after `writes` of them, as a crash or a deploy would cut a cron run short. */
function crashingAfter(writes: number): D1Database {
  let left = writes;
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, prop, receiver) {
        if (prop === "bind") return (...args: unknown[]) => wrap(target.bind(...args));
        if (prop === "run" && /^\s*update/i.test(String((target as unknown as { statement?: string }).statement ?? ""))) {
          return async () => {
            if (left-- <= 0) throw new Error("worker killed mid-run");
            return target.run();
          };
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrap(Object.assign(target.prepare(sql), { statement: sql }));
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("rotating the vault's master key", () => {
  // Each test is a rotation of its own: the same keyring's walk would otherwise have settled in an earlier one.
  beforeEach(async () => {
    await env.DB.prepare("DELETE FROM rewrap_walks").run();
  });

  it("moves over a thousand sealed secrets onto the new key in bounded cron steps, survives a crash half-way, and loses none", async () => {
    // 1,400 credentials over 140 workspaces (several per provider each) and a webhook endpoint with a rotation's two
    // secrets: more than a crashed run and one bounded run move together.
    const credentials: { id: string; workspaceId: string; providerCode: string; credential: LoginCredential }[] = [];
    const workspaces = await Promise.all(Array.from({ length: 140 }, () => createWorkspace()));
    for (const { workspaceId } of workspaces) {
      for (let i = 0; i < 10; i++) {
        const providerCode = PROVIDERS[i % PROVIDERS.length]!;
        credentials.push({ id: crypto.randomUUID(), workspaceId, providerCode, credential: { authMethod: "PROVIDER_LOGIN", loginId: `u${credentials.length}`, password: `p${credentials.length}` } });
      }
    }
    expect(credentials.length).toBeGreaterThan(CRASH_AFTER + 5 * REWRAP_BATCH);
    const now = Date.now();
    const sealed = await Promise.all(credentials.map((c) => sealCredential(OLD, { credentialId: c.id, workspaceId: c.workspaceId, providerCode: c.providerCode }, c.credential)));
    for (let i = 0; i < credentials.length; i += 100) {
      await env.DB.batch(
        credentials.slice(i, i + 100).map((c, j) =>
          env.DB.prepare("INSERT INTO credentials (id, workspace_id, provider_code, auth_method, status, sealed, created_at) VALUES (?, ?, ?, 'PROVIDER_LOGIN', 'ACTIVE', ?, ?)").bind(c.id, c.workspaceId, c.providerCode, sealed[i + j], now),
        ),
      );
    }
    const { row: endpoint, secret } = await createEndpoint(env.DB, OLD, workspaces[0]!.workspaceId, { url: "https://example.com/hook", events: ["data_job.succeeded"], description: null });
    const previous = (await env.DB.prepare("SELECT sealed_secret AS s FROM webhook_endpoints WHERE id = ?").bind(endpoint.id).first<{ s: string }>())!.s;
    await env.DB.prepare("UPDATE webhook_endpoints SET previous_sealed_secret = ?, previous_secret_expires_at = ? WHERE id = ?").bind(previous, now + 3_600_000, endpoint.id).run();
    const operator = await operatorRecord(OLD, { email: "rotation@collect-edge.co.kr", password: "operator password", role: "viewer" });
    await database(env.DB).insert(operators).values(operator.row);

    // The first run dies after CRASH_AFTER rows: each row it wrote is whole, the rest untouched.
    await expect(rewrapStep({ DB: crashingAfter(CRASH_AFTER), RESULTS: env.RESULTS }, ROTATING)).rejects.toMatchObject({ cause: { message: "worker killed mid-run" } });
    const moved = await env.DB.prepare("SELECT COUNT(*) AS n FROM credentials WHERE json_extract(sealed, '$.kv') = 2").first<{ n: number }>();
    expect(moved!.n).toBe(CRASH_AFTER);
    // Later runs carry on where the rows say, each bounded.
    let runs = 0;
    for (;;) {
      const report = await rewrapStep(env, ROTATING);
      runs++;
      expect(report.rewrapped.credentials).toBeLessThanOrEqual(5 * REWRAP_BATCH);
      expect(report.unreadable).toEqual(NONE_UNREADABLE);
      if (Object.values(report.rewrapped).every((n) => n === 0)) break;
    }
    // One run moved at most its bound, so the rest took another.
    expect(runs).toBeGreaterThan(2);
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM credentials WHERE json_extract(sealed, '$.kv') < 2").first<{ n: number }>();
    expect(left!.n).toBe(0);

    // With the old key gone from the keyring, every secret still opens, as it was.
    for (const c of credentials) expect(await openActiveCredential(env.DB, RETIRED, c.id)).toEqual(c.credential);
    expect(await signingSecrets(RETIRED, (await endpointById(env.DB, endpoint.id))!, now)).toEqual([secret, secret]);
    const totpSealed = (await env.DB.prepare("SELECT totp_sealed AS s FROM operators WHERE id = ?").bind(operator.row.id).first<{ s: string }>())!.s;
    expect(await openText(RETIRED, totpBinding(operator.row.id), totpSealed)).toBe(operator.totpSecret);
  });

  it("moves delivery routes' secrets, cards' billing keys and failure reports' pages too: with the old version retired, a subscription renews, a route delivers and a page opens", async () => {
    type Json = Record<string, any>;
    const versionsInUse = async () => (await env.DB.batch(sealedVersionsQueries().map((sql) => env.DB.prepare(sql)))).flatMap((r) => r.results as SealedVersionCount[]);
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    // Each sealed under the old key, as the runtime seals them (its keyring holds the old version alone).
    await addPaymentMethod(env, portOneGateway(env), ws.workspaceId, { number: "4242-4242-4242-4242", expiryYear: "29", expiryMonth: "12", birthOrBusinessRegistrationNumber: "1208800767", passwordTwoDigits: "00" });
    const upgraded = await callJson<Json>("/api/v1/billing/subscription/plan", { method: "POST", key: ws.apiKey, json: { plan: "PRO" } });
    expect(upgraded.status, JSON.stringify(upgraded.body)).toBe(200);
    const periodEnd = Date.parse(upgraded.body.currentPeriodEnd);
    const s3 = { endpoint: env.TEST_S3_URL, bucket: "partner-bucket", region: "us-east-1", accessKeyId: "S3RVER", prefix: `rotation-${crypto.randomUUID()}/` };
    const route = await callJson<Json>("/api/v1/delivery-routes", { method: "POST", key: ws.apiKey, json: { kind: "S3", name: "회전 버킷", s3, secretAccessKey: "S3RVER" } });
    expect(route.status).toBe(201);
    const reportId = await fileReport(env, "sandbox.bank", { requestId: `req-rotation-${crypto.randomUUID()}` }, {
      surprise: "SCRAPING_PARSER_NOT_FOUND",
      step: `rotation ${crypto.randomUUID()}`,
      adapterVersion: "sandbox-bank/test",
      detail: "unknown page",
      url: "https://bank.example/accounts",
      html: "<p>회전 전에 봉인한 페이지</p>",
      screenshot: null,
    });
    const queue = withCapturedQueue();
    const job = await createJob(queue.env, ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params: {} });
    const h = harness();
    h.queued.push(...queue.sent);
    await h.drain();
    expect((await jobRow(job.id))!.status).toBe("SUCCEEDED");
    const before = await versionsInUse();
    for (const store of ["delivery_routes", "payment_methods", "failure_reports"]) expect(before.find((r) => r.store === store && r.kv === 1)?.n, store).toBeGreaterThan(0);

    // The cron's steps, until a run finds nothing left to move.
    for (;;) {
      const report = await rewrapStep(env, ROTATING);
      expect(report.unreadable).toEqual(NONE_UNREADABLE);
      if (Object.values(report.rewrapped).every((n) => n === 0)) break;
    }
    // Nothing in any sealed column uses the old version: `--retire` drops it.
    const after = await versionsInUse();
    expect(after.filter((r) => r.kv !== 2)).toEqual([]);
    expect(withoutUnused(ROTATING, new Set(after.map((r) => r.kv!)))).toBe(RETIRED);

    // With the old key gone from the keyring, the month renews on the card, the route delivers, the page opens.
    const retired = { ...env, VAULT_MASTER_KEY: RETIRED };
    expect(await renewSubscriptions(retired, portOneGateway(retired), periodEnd + 1000, ws.workspaceId)).toMatchObject({ renewed: 1, refused: 0 });
    const [renewal] = (await callJson<Json>("/api/v1/billing/invoices", { key: ws.apiKey })).body.items;
    expect(renewal).toMatchObject({ kind: "RENEWAL", status: "PAID", periodStart: new Date(periodEnd).toISOString() });
    const files = await deliverJob(retired, (await findRouteById(env.DB, route.body.id))!, (await findJobById(env.DB, job.id))!, { findJobById, resultUnits });
    expect(files.map((f) => f.name)).toEqual(["results.csv", "results.json", "manifest.json"]);
    const client = new AwsClient({ accessKeyId: "S3RVER", secretAccessKey: "S3RVER", service: "s3", region: "us-east-1" });
    expect(JSON.parse(await (await client.fetch(`${env.TEST_S3_URL}/partner-bucket/${s3.prefix}${job.id}/manifest.json`)).text())).toMatchObject({ jobId: job.id });
    expect(await reportPage(retired, (await findReport(env.DB, reportId))!)).toEqual({ html: "<p>회전 전에 봉인한 페이지</p>", screenshot: null });
  });

  it("leaves a secret no key of the keyring opens as it is in every store, counts it, and still moves the rows beside it; a page whose object is gone is marked so, one R2 cannot read stops the run instead", async () => {
    // Version 1 like the old key, but another key: the rotating keyring opens nothing sealed with it.
    const FOREIGN = `v1:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
    const foreign = { ...env, VAULT_MASTER_KEY: FOREIGN };
    const ws = await createWorkspace();
    const readable = await addCredential(ws.workspaceId);
    const unreadable = crypto.randomUUID();
    const credential: LoginCredential = { authMethod: "PROVIDER_LOGIN", loginId: "foreign", password: "foreign" };
    await env.DB.prepare("INSERT INTO credentials (id, workspace_id, provider_code, auth_method, status, sealed, created_at) VALUES (?, ?, 'sandbox.card', 'PROVIDER_LOGIN', 'ACTIVE', ?, ?)")
      .bind(unreadable, ws.workspaceId, await sealCredential(FOREIGN, { credentialId: unreadable, workspaceId: ws.workspaceId, providerCode: "sandbox.card" }, credential), Date.now())
      .run();
    const { row: endpoint } = await createEndpoint(env.DB, FOREIGN, ws.workspaceId, { url: "https://example.com/foreign", events: ["data_job.succeeded"], description: null });
    const operator = await operatorRecord(FOREIGN, { email: "foreign-key@collect-edge.co.kr", password: "operator password", role: "viewer" });
    await database(env.DB).insert(operators).values(operator.row);
    const route = await createRoute(env.DB, FOREIGN, { workspaceId: ws.workspaceId, name: "foreign", kind: "S3", config: { endpoint: "https://s3.example.com", bucket: "b", region: "us-east-1", accessKeyId: "AK", prefix: "p/" }, secret: "SK" }, false);
    const card = await addPaymentMethod(foreign, portOneGateway(env), ws.workspaceId, { number: "4242-4242-4242-4242", expiryYear: "29", expiryMonth: "12", birthOrBusinessRegistrationNumber: "1208800767", passwordTwoDigits: "00" });
    await setOpenBankingKeys(env.DB, FOREIGN, ws.workspaceId, { clientId: "foreign-client", clientSecret: "foreign-secret", clientUseCode: "F123456789" }, Date.now());
    const page = { surprise: "SCRAPING_PARSER_NOT_FOUND", adapterVersion: "sandbox-bank/test", detail: "unknown page", url: "https://bank.example/accounts", html: "<p>봉인</p>", screenshot: null } as const;
    const foreignReport = await fileReport(foreign, "sandbox.bank", { requestId: `req-${crypto.randomUUID()}` }, { ...page, step: `foreign ${crypto.randomUUID()}` });
    const foreignPage = (await findReport(env.DB, foreignReport))!.pageKey!;
    const sealedNow = async () => ({
      credential: (await env.DB.prepare("SELECT sealed AS s FROM credentials WHERE id = ?").bind(unreadable).first<{ s: string }>())!.s,
      endpoint: (await env.DB.prepare("SELECT sealed_secret AS s FROM webhook_endpoints WHERE id = ?").bind(endpoint.id).first<{ s: string }>())!.s,
      operator: (await env.DB.prepare("SELECT totp_sealed AS s FROM operators WHERE id = ?").bind(operator.row.id).first<{ s: string }>())!.s,
      route: (await env.DB.prepare("SELECT sealed_secret AS s FROM delivery_routes WHERE id = ?").bind(route.id).first<{ s: string }>())!.s,
      card: (await env.DB.prepare("SELECT sealed_billing_key AS s FROM payment_methods WHERE id = ?").bind(card.id).first<{ s: string }>())!.s,
      partner: (await env.DB.prepare("SELECT sealed_secret AS s FROM partner_open_banking_keys WHERE partner_workspace_id = ?").bind(ws.workspaceId).first<{ s: string }>())!.s,
      page: await (await env.RESULTS.get(foreignPage))!.text(),
    });
    const before = await sealedNow();
    // A page whose object is gone has nothing to move: its row says so, and it is not counted as unreadable.
    const goneReport = await fileReport(env, "sandbox.bank", { requestId: `req-${crypto.randomUUID()}` }, { ...page, step: `gone ${crypto.randomUUID()}` });
    await env.RESULTS.delete((await findReport(env.DB, goneReport))!.pageKey!);

    const report = await rewrapStep(env, ROTATING);
    expect(report.unreadable).toEqual(Object.fromEntries(Object.keys(NONE_UNREADABLE).map((store) => [store, 1])));
    expect(await sealedNow()).toEqual(before);
    expect((await findReport(env.DB, foreignReport))!.pageKeyVersion).toBe(1);
    expect(await findReport(env.DB, goneReport)).toMatchObject({ pageKey: null, pageKeyVersion: null });
    expect(await openActiveCredential(env.DB, RETIRED, readable)).toEqual({ authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" });
    expect(await openText(FOREIGN, totpBinding(operator.row.id), before.operator)).toBe(operator.totpSecret);

    // A page whose object R2 fails to read is not unreadable: the run stops, and the page keeps its version for the next.
    // Filed under the old version after the walk passed: the walk after REWRAP_SETTLE_MS reads it.
    const readableReport = await fileReport(env, "sandbox.bank", { requestId: `req-${crypto.randomUUID()}` }, { ...page, step: `readable ${crypto.randomUUID()}` });
    const failingR2 = new Proxy(env.RESULTS, {
      get: (target, prop) => (prop === "get" ? () => Promise.reject(new Error("R2 unavailable")) : Reflect.get(target, prop).bind(target)),
    });
    const settled = Date.now() + REWRAP_SETTLE_MS;
    await expect(rewrapStep({ DB: env.DB, RESULTS: failingR2 }, ROTATING, undefined, settled)).rejects.toThrow("R2 unavailable");
    expect((await findReport(env.DB, readableReport))!.pageKeyVersion).toBe(1);
    await rewrapStep(env, ROTATING, undefined, settled);
    expect((await findReport(env.DB, readableReport))!.pageKeyVersion).toBe(2);

    // The files after this one run the rotation's queries over every row: the foreign secrets go.
    await env.DB.batch([
      env.DB.prepare("DELETE FROM credentials WHERE id = ?").bind(unreadable),
      env.DB.prepare("DELETE FROM webhook_endpoints WHERE id = ?").bind(endpoint.id),
      env.DB.prepare("DELETE FROM operators WHERE id = ?").bind(operator.row.id),
      env.DB.prepare("DELETE FROM delivery_routes WHERE id = ?").bind(route.id),
      env.DB.prepare("DELETE FROM payment_methods WHERE id = ?").bind(card.id),
      env.DB.prepare("DELETE FROM partner_open_banking_keys WHERE partner_workspace_id = ?").bind(ws.workspaceId),
      env.DB.prepare("DELETE FROM failure_reports WHERE id = ?").bind(foreignReport),
    ]);
    await env.RESULTS.delete(foreignPage);
  });

  it("walks past more secrets no key opens than a batch holds, ahead of readable ones in key order, and moves every readable one", async () => {
    const FOREIGN = `v1:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
    const ws = await createWorkspace();
    const now = Date.now();
    // "0-…" sorts before every UUID and "z-…" after: the unreadable rows come first in key order, and in the table's.
    const stuck = Array.from({ length: REWRAP_BATCH + 50 }, (_, i) => `0-stuck-${String(i).padStart(4, "0")}-${crypto.randomUUID()}`);
    const good = Array.from({ length: 50 }, () => `z-good-${crypto.randomUUID()}`);
    const credential: LoginCredential = { authMethod: "PROVIDER_LOGIN", loginId: "stuck", password: "stuck" };
    const insert = async (id: string, keyring: string) =>
      env.DB.prepare("INSERT INTO credentials (id, workspace_id, provider_code, auth_method, status, sealed, created_at) VALUES (?, ?, 'sandbox.bank', 'PROVIDER_LOGIN', 'ACTIVE', ?, ?)").bind(
        id,
        ws.workspaceId,
        await sealCredential(keyring, { credentialId: id, workspaceId: ws.workspaceId, providerCode: "sandbox.bank" }, credential),
        now,
      );
    await env.DB.batch(await Promise.all(stuck.map((id) => insert(id, FOREIGN))));
    await env.DB.batch(await Promise.all(good.map((id) => insert(id, OLD))));
    const sealedOf = async (ids: string[]) =>
      (await env.DB.prepare(`SELECT sealed FROM credentials WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`).bind(JSON.stringify(ids)).all<{ sealed: string }>()).results.map((r) => r.sealed);
    const stuckBefore = await sealedOf(stuck);

    let unreadable = 0;
    for (let run = 0; run < 10; run++) {
      const report = await rewrapStep(env, ROTATING);
      unreadable += report.unreadable.credentials!;
      if (Object.values(report.rewrapped).every((n) => n === 0)) break;
    }
    expect((await sealedOf(good)).map((s) => JSON.parse(s).kv)).toEqual(good.map(() => 2));
    for (const id of good) expect(await openActiveCredential(env.DB, RETIRED, id)).toEqual(credential);
    // Each unreadable row passed over once, counted once, and left byte for byte.
    expect(unreadable).toBe(stuck.length);
    expect(await sealedOf(stuck)).toEqual(stuckBefore);

    await env.DB.prepare("DELETE FROM credentials WHERE workspace_id = ?").bind(ws.workspaceId).run();
  });

  it("reads no sealed table in a minute once a walk has passed every row, walks once more after REWRAP_SETTLE_MS for what an older deployment sealed meanwhile, then reads none again", async () => {
    const stores = Object.keys(NONE_UNREADABLE).length;
    const start = Date.now();
    const untilNothingMoves = async (now: number) => {
      for (;;) if (Object.values((await rewrapStep(env, ROTATING, undefined, now)).rewrapped).every((n) => n === 0)) return;
    };
    const metered = meteredEnv(env);
    const readDuring = async (now: number) => {
      takeUsage(true);
      await rewrapStep(metered, ROTATING, undefined, now);
      return takeUsage(true);
    };
    await untilNothingMoves(start);
    // A deployment still running with the old keyring seals a secret under the old version behind the walk.
    const ws = await createWorkspace();
    const late = await addCredential(ws.workspaceId);
    const lateVersion = async () => JSON.parse((await env.DB.prepare("SELECT sealed FROM credentials WHERE id = ?").bind(late).first<{ sealed: string }>())!.sealed).kv;

    // Minutes later: the walk is done, so the run reads only its own progress (a row per store), in one query.
    const quiet = await readDuring(start + 60_000);
    expect(quiet.d1RowsRead).toBeLessThanOrEqual(stores);
    expect(quiet.d1Queries).toBe(1);
    expect(await lateVersion()).toBe(1);

    // Once no older deployment can still be writing, one more walk moves what they sealed.
    await untilNothingMoves(start + REWRAP_SETTLE_MS);
    expect(await lateVersion()).toBe(2);
    for (const later of [start + REWRAP_SETTLE_MS + 60_000, start + 30 * 86_400_000]) {
      const settled = await readDuring(later);
      expect(settled.d1RowsRead).toBeLessThanOrEqual(stores);
      expect(settled.d1Queries).toBe(1);
    }
  });

  it("adds a newest version to the keyring for npm run vault:rotate, and retires only versions nothing uses", () => {
    const added = withNewVersion("bare-key", "k2");
    expect(added).toBe("v1:bare-key,v2:k2");
    expect(keyringEntries(withNewVersion(added, "k3")).map((e) => e.version)).toEqual([1, 2, 3]);
    expect(withoutUnused("v1:a,v2:b,v3:c", new Set([2]))).toBe("v2:b,v3:c");
    // The newest stays even when no secret uses it yet.
    expect(withoutUnused("v1:a,v2:b", new Set([1]))).toBe("v1:a,v2:b");
  });
});
