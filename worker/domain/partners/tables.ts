import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "../workspaces/tables";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

export const CONNECTION_STATUSES = ["ACTIVE", "REVOKED"] as const;

/**
 * A partner workspace acting for one business. Each connection owns a
 * workspace of its own (`workspaceId`), so the business's credentials, jobs
 * and registration sessions are scoped exactly like any workspace's.
 */
export const connections = sqliteTable(
  "connections",
  {
    id: text("id").primaryKey(),
    partnerWorkspaceId: text("partner_workspace_id").notNull().references(() => workspaces.id),
    businessNumber: text("business_number").notNull(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    status: text("status", { enum: CONNECTION_STATUSES }).notNull().default("ACTIVE"),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [
    uniqueIndex("connections_one_active").on(t.partnerWorkspaceId, t.businessNumber).where(sql`status = 'ACTIVE'`),
    index("connections_partner").on(t.partnerWorkspaceId, t.businessNumber),
  ],
);

/**
 * A partner's own Open Banking 이용기관 keys (docs/institutions/openbanking.md §1.5), at most one set per partner
 * workspace: used for the consents of its businesses only. The secret is sealed (open-banking-keys.ts), bound to
 * the partner's workspace; the client id and 이용기관 code are shown back.
 */
export const partnerOpenBankingKeys = sqliteTable("partner_open_banking_keys", {
  partnerWorkspaceId: text("partner_workspace_id").primaryKey().references(() => workspaces.id),
  clientId: text("client_id").notNull(),
  clientUseCode: text("client_use_code").notNull(),
  sealedSecret: text("sealed_secret").notNull(),
  setAt: integer("set_at").notNull(),
});
