import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

/** Every e-mail the service sends, as sent: the local stack's outbox, and the record of what production sent (worker/domain/mail/). */
export const mailOutbox = sqliteTable("mail_outbox", {
  id: text("id").primaryKey(),
  recipient: text("recipient").notNull(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  createdAt: integer("created_at").notNull(),
  /** When the mail binding took it; null where none is configured (locally) or it failed. */
  sentAt: integer("sent_at"),
});
