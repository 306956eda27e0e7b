import { rewrapBillingKeys } from "../billing/payment-methods";
import { rewrapCredentials } from "../credentials/store";
import { rewrapRouteSecrets } from "../deliveries/store";
import { rewrapOperatorSecrets } from "../operators/store";
import { rewrapOpenBankingKeys } from "../partners/open-banking-keys";
import { rewrapReportPages } from "../reports/store";
import { rewrapEndpointSecrets } from "../webhooks/endpoints";
import { keyringVersions } from "../vault/keyring";
import type { RewrapTally } from "../vault/rewrap-rows";
import { rewrapWalksNow, saveWalk, walkOnThisRun } from "./walks";

/** Rows one batch re-wraps; a few batches a cron run, so a run stays small and a backlog drains over the next minutes. */
export const REWRAP_BATCH = 200;
export const REWRAP_BATCHES_PER_RUN = 5;

type RewrapEnv = Pick<Env, "DB" | "RESULTS">;
type Rewrap = (env: RewrapEnv, masterSecret: string, after: string | null, limit: number) => Promise<RewrapTally>;

/**
 * Every store of sealed secrets, each rewrapped by its owning module: whatever the vault seals must be here, or a
 * retired key version would still be the only one that opens it (test/workers/domain/key-rotation/vault-rotation.storage-wide.test.ts retires one).
 */
const STORES: Record<string, Rewrap> = {
  credentials: (env, key, after, limit) => rewrapCredentials(env.DB, key, after, limit),
  webhook_endpoints: (env, key, after, limit) => rewrapEndpointSecrets(env.DB, key, after, limit),
  operators: (env, key, after, limit) => rewrapOperatorSecrets(env.DB, key, after, limit),
  delivery_routes: (env, key, after, limit) => rewrapRouteSecrets(env.DB, key, after, limit),
  payment_methods: (env, key, after, limit) => rewrapBillingKeys(env.DB, key, after, limit),
  partner_open_banking_keys: (env, key, after, limit) => rewrapOpenBankingKeys(env.DB, key, after, limit),
  failure_reports: rewrapReportPages,
};

export interface RewrapReport {
  /** Rows moved onto the newest master key this run, per store. */
  rewrapped: Record<string, number>;
  /** Rows no key of the keyring opens, passed over this run (once a walk's pass): they stay as they are (their secret must be registered again). */
  unreadable: Record<string, number>;
}

/**
 * A step of a master-key rotation (docs/deploying.md, "Rotating the vault's master key"), run by the cron: once the
 * keyring names a newer version (`VAULT_MASTER_KEY=v1:…,v2:…`), new secrets are sealed with it at once, and each run
 * moves a bounded number of old ones onto it, walking each store in key order (key-rotation/walks.ts): a row that
 * cannot be re-wrapped is counted once a pass and passed over, and a store whose walk has settled is not read again
 * until the keyring changes. Each row is written on its own, so a run cut short (a crash, a deploy) loses nothing and
 * the next run carries on from the walk's last saved batch. An old version may leave the keyring once no row uses it
 * (`npm run vault:rotate -- --status`).
 */
export async function rewrapStep(env: RewrapEnv, masterSecret: string, batches = REWRAP_BATCHES_PER_RUN, now = Date.now()): Promise<RewrapReport> {
  const report: RewrapReport = { rewrapped: {}, unreadable: {} };
  const keyring = keyringVersions(masterSecret);
  const walks = await rewrapWalksNow(env.DB);
  for (const [store, rewrap] of Object.entries(STORES)) {
    report.rewrapped[store] = 0;
    report.unreadable[store] = 0;
    const walk = walkOnThisRun(walks.get(store), store, keyring, now);
    if (!walk) continue;
    for (let batch = 0; batch < batches; batch++) {
      const { seen, unreadable, last } = await rewrap(env, masterSecret, walk.after, REWRAP_BATCH);
      report.rewrapped[store] += seen - unreadable;
      report.unreadable[store] += unreadable;
      walk.after = last ?? walk.after;
      walk.passDone = seen < REWRAP_BATCH;
      await saveWalk(env.DB, walk);
      if (walk.passDone) break;
    }
  }
  return report;
}
