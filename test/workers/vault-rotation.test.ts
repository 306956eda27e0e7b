import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { LoginCredential } from "../../collectors/adapter";
import { openActiveCredential } from "../../worker/domain/credentials/store";
import { createEndpoint, endpointById } from "../../worker/domain/webhooks/endpoints";
import { signingSecrets } from "../../worker/domain/webhooks/secrets";
import { database } from "../../worker/platform/database/client";
import { operators } from "../../worker/domain/operators/tables";
import { operatorRecord, totpBinding } from "../../worker/domain/operators/enrol";
import { openText, sealCredential } from "../../worker/domain/vault/envelope";
import { keyringEntries, withNewVersion, withoutUnused } from "../../worker/domain/vault/keyring";
import { REWRAP_BATCH, rewrapStep } from "../../worker/domain/key-rotation/rewrap";
import { createWorkspace } from "./helpers";

const OLD = env.VAULT_MASTER_KEY;
const NEW_KEY = `v2:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
const ROTATING = `${OLD},${NEW_KEY}`;
/** The keyring once the old key is retired: only what the rotation moved opens with it. */
const RETIRED = NEW_KEY;
const PROVIDERS = ["sandbox.bank", "sandbox.card", "sandbox.taxportal", "hometax"];
const CRASH_AFTER = 300;

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
    await expect(rewrapStep(crashingAfter(CRASH_AFTER), ROTATING)).rejects.toMatchObject({ cause: { message: "worker killed mid-run" } });
    const moved = await env.DB.prepare("SELECT COUNT(*) AS n FROM credentials WHERE json_extract(sealed, '$.kv') = 2").first<{ n: number }>();
    expect(moved!.n).toBe(CRASH_AFTER);
    // Later runs carry on where the rows say, each bounded.
    let runs = 0;
    for (;;) {
      const report = await rewrapStep(env.DB, ROTATING);
      runs++;
      expect(report.rewrapped.credentials).toBeLessThanOrEqual(5 * REWRAP_BATCH);
      expect(report.unreadable).toEqual({ credentials: 0, webhook_endpoints: 0, operators: 0 });
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

  it("adds a newest version to the keyring for npm run vault:rotate, and retires only versions nothing uses", () => {
    const added = withNewVersion("bare-key", "k2");
    expect(added).toBe("v1:bare-key,v2:k2");
    expect(keyringEntries(withNewVersion(added, "k3")).map((e) => e.version)).toEqual([1, 2, 3]);
    expect(withoutUnused("v1:a,v2:b,v3:c", new Set([2]))).toBe("v2:b,v3:c");
    // The newest stays even when no secret uses it yet.
    expect(withoutUnused("v1:a,v2:b", new Set([1]))).toBe("v1:a,v2:b");
  });
});
