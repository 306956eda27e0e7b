import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "../workspaces/tables";
import type { PendingLogin } from "./pending-login";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

// LOCKED: too many failed submissions. Only PENDING accepts input; every other status is final.
export const REGISTRATION_SESSION_STATUSES = ["PENDING", "CONSUMED", "CANCELLED", "EXPIRED", "LOCKED"] as const;
export type RegistrationSessionStatus = (typeof REGISTRATION_SESSION_STATUSES)[number];

export const registrationSessions = sqliteTable(
  "registration_sessions",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    /** SHA-256 of the one-time session token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    status: text("status", { enum: REGISTRATION_SESSION_STATUSES }).notNull().default("PENDING"),
    /** The registrationOptions fixed at issue: what the end-user may register. */
    options: text("options", { mode: "json" }).$type<(({ kind: "CERTIFICATE" } | { kind: "PROVIDER_LOGIN"; providerCode: string }) & { schemas?: string[] })[]>().notNull(),
    originAllowlist: text("origin_allowlist", { mode: "json" }).$type<string[]>().notNull(),
    clientReferenceId: text("client_reference_id"),
    /** The workspace's business number at issue. */
    businessNumber: text("business_number"),
    /** Failed submissions so far; at the cap the session is dead. */
    attempts: integer("attempts").notNull().default(0),
    credentialId: text("credential_id"),
    /** A recovery session's credential: the end-user re-enters only its secret, and it keeps its id (domain/credentials/recovery.ts). */
    recoversCredentialId: text("recovers_credential_id"),
    /**
     * An Open Banking consent under way (open-banking.ts): SHA-256 of the `state` the person's browser carries to
     * KFTC's page and back, until when it is good (minutes), and how the last consent ended (`consentOutcome`, what
     * the hosted page reads). The state is cleared when the callback uses it: each is good once.
     */
    consentStateHash: text("consent_state_hash"),
    consentStateExpiresAt: integer("consent_state_expires_at"),
    consentOutcome: text("consent_outcome", { mode: "json" }).$type<{ state: "CONNECTED" } | { state: "FAILED"; code: string; message: string }>(),
    /**
     * A login submitted and being checked at the institution (pending-login.ts): sealed, not yet a credential, so a
     * refused or unchecked one supersedes nothing. Cleared when the check ends, whatever way.
     */
    pendingLogin: text("pending_login", { mode: "json" }).$type<PendingLogin>(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [
    uniqueIndex("registration_sessions_token").on(t.tokenHash),
    index("registration_sessions_workspace").on(t.workspaceId, t.createdAt),
    // The sweep finds sessions that expired while PENDING (domain/registration/expiry.ts).
    index("registration_sessions_status_expires").on(t.status, t.expiresAt),
    // One recovery taking input per credential.
    // The callback finds its session by the state it carries.
    uniqueIndex("registration_sessions_consent_state").on(t.consentStateHash),
    uniqueIndex("registration_sessions_one_recovery").on(t.recoversCredentialId).where(sql`status = 'PENDING'`),
  ],
);
