import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "../workspaces/tables";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

/** Where a workspace wants its events sent (worker/domain/webhooks/). */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    url: text("url").notNull(),
    description: text("description"),
    /** The event types it subscribed to (contracts/webhooks.ts WEBHOOK_EVENT_TYPES). */
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    /** The signing secret, sealed by the vault; shown to the workspace only when created or rotated. */
    sealedSecret: text("sealed_secret").notNull(),
    /** The secret a rotation replaced, still signing alongside the new one until `previousSecretExpiresAt`. */
    previousSealedSecret: text("previous_sealed_secret"),
    previousSecretExpiresAt: integer("previous_secret_expires_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("webhook_endpoints_workspace").on(t.workspaceId, t.createdAt, t.id)],
);

export const WEBHOOK_DELIVERY_STATUSES = ["PENDING", "SUCCEEDED", "FAILED"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One try at sending a delivery, as the delivery log shows it. */
export interface WebhookAttempt {
  at: number;
  /** The receiver's HTTP status; null when no answer came (network error, timeout). */
  responseStatus: number | null;
  durationMs: number;
  /** Why the try failed, truncated; null when it succeeded. */
  error: string | null;
  /** When the retry it scheduled is due; null when it succeeded or was the last. */
  nextAttemptAt: number | null;
}

/** One event for one endpoint, and the log of trying to send it. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The exact body sent, so every attempt (and a replay) signs and sends the same bytes. */
    payload: text("payload").notNull(),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("PENDING"),
    /** Attempts made so far; a queue message names the count it expects, so a duplicate message sends nothing. */
    attemptCount: integer("attempt_count").notNull().default(0),
    /** The latest attempts, newest last (at most MAX_LOGGED_ATTEMPTS). */
    attempts: text("attempts", { mode: "json" }).$type<WebhookAttempt[]>().notNull(),
    nextAttemptAt: integer("next_attempt_at"),
    /** Retries stop after this (24 h after the event, or after a replay). */
    retryUntil: integer("retry_until").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("webhook_deliveries_endpoint").on(t.endpointId, t.createdAt, t.id), index("webhook_deliveries_pending").on(t.status, t.nextAttemptAt)],
);
