import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

/**
 * Pages the scrapers could not read, and certificate checks whose crypto could not run (worker/domain/reports/): one open
 * report per provider, kind, step and adapter version, however often it recurs; the page itself, redacted and sealed,
 * is an R2 object kept until `expires_at`.
 */
export const failureReports = sqliteTable(
  "failure_reports",
  {
    id: text("id").primaryKey(),
    providerCode: text("provider_code").notNull(),
    /** SCRAPING_PARSER_NOT_FOUND or SCRAPING_RESPONSE_MALFORMED from a scraper; CERT_CRYPTO_UNAVAILABLE from a certificate check. */
    surprise: text("surprise").notNull(),
    step: text("step").notNull(),
    adapterVersion: text("adapter_version").notNull(),
    detail: text("detail").notNull(),
    /** The page's address, as redacted as the page. */
    url: text("url"),
    /** The first job that met it; null for a failure outside any job (a certificate check at registration). */
    jobId: text("job_id"),
    /** The first request that met it, when no job did: the requestId its answer carried. */
    requestId: text("request_id"),
    occurrences: integer("occurrences").notNull(),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    /** The R2 object holding the sealed page (HTML and screenshot); null when the scraper had no page to keep. */
    pageKey: text("page_key"),
    /**
     * The vault's master key version the page is sealed under (the object's `kv`), kept here so a rotation finds the
     * pages to move and `npm run vault:rotate -- --status` counts them; null for pages filed before it was kept.
     */
    pageKeyVersion: integer("page_key_version"),
    expiresAt: integer("expires_at").notNull(),
    closedAt: integer("closed_at"),
    closedBy: text("closed_by"),
    /** The adapter change that fixed it: a commit, a pull request. */
    fixRef: text("fix_ref"),
  },
  (t) => [
    uniqueIndex("failure_reports_one_open").on(t.providerCode, t.surprise, t.step, t.adapterVersion).where(sql`closed_at IS NULL`),
    index("failure_reports_created").on(t.createdAt),
    index("failure_reports_expires").on(t.expiresAt),
  ],
);
