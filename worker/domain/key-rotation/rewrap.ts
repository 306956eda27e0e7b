import { rewrapBillingKeys } from "../billing/payment-methods";
import { rewrapCredentials } from "../credentials/store";
import { rewrapRouteSecrets } from "../deliveries/store";
import { rewrapOperatorSecrets } from "../operators/store";
import { rewrapOpenBankingKeys } from "../partners/open-banking-keys";
import { rewrapReportPages } from "../reports/store";
import { rewrapEndpointSecrets } from "../webhooks/endpoints";
import type { RewrapTally } from "../vault/rewrap-rows";

/** Rows one batch re-wraps; a few batches a cron run, so a run stays small and a backlog drains over the next minutes. */
export const REWRAP_BATCH = 200;
export const REWRAP_BATCHES_PER_RUN = 5;

type RewrapEnv = Pick<Env, "DB" | "RESULTS">;
type Rewrap = (env: RewrapEnv, masterSecret: string, limit: number) => Promise<RewrapTally>;

/**
 * Every store of sealed secrets, each rewrapped by its owning module: whatever the vault seals must be here, or a
 * retired key version would still be the only one that opens it (test/workers/domain/key-rotation/vault-rotation.storage-wide.test.ts retires one).
 */
const STORES: Record<string, Rewrap> = {
  credentials: (env, key, limit) => rewrapCredentials(env.DB, key, limit),
  webhook_endpoints: (env, key, limit) => rewrapEndpointSecrets(env.DB, key, limit),
  operators: (env, key, limit) => rewrapOperatorSecrets(env.DB, key, limit),
  delivery_routes: (env, key, limit) => rewrapRouteSecrets(env.DB, key, limit),
  payment_methods: (env, key, limit) => rewrapBillingKeys(env.DB, key, limit),
  partner_open_banking_keys: (env, key, limit) => rewrapOpenBankingKeys(env.DB, key, limit),
  failure_reports: rewrapReportPages,
};

export interface RewrapReport {
  /** Rows moved onto the newest master key this run, per store. */
  rewrapped: Record<string, number>;
  /** Rows no key of the keyring opens: they stay as they are (their secret must be registered again). */
  unreadable: Record<string, number>;
}

/**
 * A step of a master-key rotation (docs/deploying.md, "Rotating the vault's master key"), run by the cron: once the
 * keyring names a newer version (`VAULT_MASTER_KEY=v1:…,v2:…`), new secrets are sealed with it at once, and each run
 * moves a bounded number of old ones onto it. Each row is written on its own, so a run cut short (a crash, a deploy)
 * loses nothing and the next run carries on where the rows say. An old version may leave the keyring once no row uses
 * it (`npm run vault:rotate -- --status`).
 */
export async function rewrapStep(env: RewrapEnv, masterSecret: string, batches = REWRAP_BATCHES_PER_RUN): Promise<RewrapReport> {
  const report: RewrapReport = { rewrapped: {}, unreadable: {} };
  for (const [store, rewrap] of Object.entries(STORES)) {
    report.rewrapped[store] = 0;
    report.unreadable[store] = 0;
    for (let batch = 0; batch < batches; batch++) {
      const { seen, unreadable } = await rewrap(env, masterSecret, REWRAP_BATCH);
      report.rewrapped[store] += seen - unreadable;
      report.unreadable[store] = unreadable;
      // A batch of nothing but unreadable rows would be read again and again: wait for the next run.
      if (seen < REWRAP_BATCH || seen === unreadable) break;
    }
  }
  return report;
}
