import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * What the national tax service last said of a business number (provider nts.business-status,
 * docs/institutions/nts-business-status.md): one row per number, whoever holds it (a workspace's own number,
 * a certificate's business), so a number several workspaces share is asked once a day.
 */
export const businessStatuses = sqliteTable("business_statuses", {
  businessNumber: text("business_number").primaryKey(),
  /** False: NTS does not know the number (국세청에 등록되지 않은 사업자등록번호). */
  registered: integer("registered", { mode: "boolean" }).notNull(),
  /** NTS's `b_stt_cd`: 01 계속사업자, 02 휴업자, 03 폐업자; null when unregistered. */
  statusCode: text("status_code"),
  /** NTS's `b_stt`, as answered. */
  status: text("status"),
  /** `end_dt` as YYYY-MM-DD, for a closed business; else null. */
  closureDate: text("closure_date"),
  checkedAt: integer("checked_at").notNull(),
});
