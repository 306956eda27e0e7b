/**
 * Every column the vault seals into, by table, as `npm run vault:rotate -- --status` counts them (scripts/vault-rotate.ts)
 * and test/workers/domain/key-rotation/vault-rotation.storage-wide.test.ts checks them: the cron re-wraps each (worker/domain/key-rotation/rewrap.ts
 * STORES), and a key version any of them still uses must stay in the keyring. A failure report's page is an R2 object:
 * its row keeps the version (`page_key_version`; null for a page filed before it was kept: not known until the cron has
 * read it, so nothing is retired meanwhile). Plain SQL, no Node: the Workers tests import it.
 */
export const SEALED_COLUMNS: Readonly<Record<string, string>> = {
  credentials: "SELECT json_extract(sealed, '$.kv') AS kv FROM credentials WHERE sealed IS NOT NULL",
  webhook_endpoints: `SELECT json_extract(sealed_secret, '$.kv') AS kv FROM webhook_endpoints
    UNION ALL SELECT json_extract(previous_sealed_secret, '$.kv') FROM webhook_endpoints WHERE previous_sealed_secret IS NOT NULL`,
  operators: "SELECT json_extract(totp_sealed, '$.kv') AS kv FROM operators",
  delivery_routes: "SELECT json_extract(sealed_secret, '$.kv') AS kv FROM delivery_routes WHERE sealed_secret IS NOT NULL",
  payment_methods: "SELECT json_extract(sealed_billing_key, '$.kv') AS kv FROM payment_methods",
  partner_open_banking_keys: "SELECT json_extract(sealed_secret, '$.kv') AS kv FROM partner_open_banking_keys",
  failure_reports: "SELECT page_key_version AS kv FROM failure_reports WHERE page_key IS NOT NULL",
};

/**
 * One statement per table (D1 allows only a few terms in one compound SELECT), each answering a row per key version in
 * use: `store`, `kv` (null: not known yet), `n`.
 */
export const sealedVersionsQueries = (): string[] =>
  Object.entries(SEALED_COLUMNS).map(([store, select]) => `SELECT '${store}' AS store, kv, COUNT(*) AS n FROM (${select}) GROUP BY kv`);

export interface SealedVersionCount {
  store: string;
  kv: number | null;
  n: number;
}
