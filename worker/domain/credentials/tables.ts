import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "../workspaces/tables";
import type { CertificateFace } from "../certificates/verify";
import type { KnownTargets } from "./targets";
import type { ConsentFace } from "./consent-face";
import type { ConsentRecord } from "./consent-record";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

// SUPERSEDED: the same login or certificate was registered again; its secret is erased once no unfinished job
// still runs on it, since jobs finish on the credential they started with.
export const CREDENTIAL_STATUSES = ["ACTIVE", "SUPERSEDED", "DELETED"] as const;
export const CHECK_STATES = ["CHECKING", "VALID", "INVALID", "UNKNOWN"] as const;
/** Why a credential was DELETED: by its workspace, with its partner connection, or by its holder withdrawing consent. */
export const REVOKED_REASONS = ["DELETED_BY_WORKSPACE", "CONNECTION_REVOKED", "HOLDER_WITHDREW"] as const;

export const credentials = sqliteTable(
  "credentials",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    /** The provider it logs in at, or GLOBAL_PROVIDER for a certificate that serves every provider taking certificates. */
    providerCode: text("provider_code").notNull(),
    /** OPEN_BANKING: a person's consent at KFTC Open Banking, its tokens sealed like any secret (consent-face.ts). */
    authMethod: text("auth_method", { enum: ["PROVIDER_LOGIN", "CERTIFICATE", "OPEN_BANKING", "SIMPLE_AUTH"] }).notNull(),
    /**
     * What makes two registrations the same credential (domain/credentials/identity.ts): the certificate's issuer and
     * serial, or a hash of the provider and login id. Null only on rows older than identities, until the
     * identity backfill (domain/credentials/identity-backfill.ts) reads it from their secret.
     */
    identity: text("identity"),
    /** The credential jobs for its provider take when they name none (at most one live per provider). */
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    /** The business it logs in for: the workspace's own unless registered for another (an accounting firm's clients). */
    businessNumber: text("business_number"),
    /**
     * The accounts and cards the institution showed the last job on this credential that looked (their ids as
     * shown, and when): a job naming another is refused at creation (domain/credentials/targets.ts).
     */
    knownTargets: text("known_targets", { mode: "json" }).$type<KnownTargets>(),
    /**
     * The login check run when it is registered or on request (domain/pipeline/probe.ts): CHECKING until the probe
     * `check_id` names settles it VALID, INVALID (the institution or the user's side refused: `check_error`) or
     * UNKNOWN (the probe could not tell). Null: never checked (older rows, global certificates until asked).
     */
    checkState: text("check_state", { enum: CHECK_STATES }),
    checkId: text("check_id"),
    checkError: text("check_error", { mode: "json" }).$type<import("../../../contracts/job-failures").JobError>(),
    checkedAt: integer("checked_at"),
    /**
     * When the latest check was asked for (ms): a check asked for within CHECK_INTERVAL_MS of it is refused, decided in
     * the same conditional update that starts the check (domain/credentials/login-checks.ts `startCheck`).
     */
    checkRequestedAt: integer("check_requested_at"),
    /** The nearest warning of its certificate's expiry already sent (30, 7, 1 days ahead: domain/credentials/expiry-warnings.ts). */
    expiryWarnedDays: integer("expiry_warned_days"),
    status: text("status", { enum: CREDENTIAL_STATUSES }).notNull().default("ACTIVE"),
    /** Envelope-encrypted secret material (JSON of ciphertext, iv, wrapped data key, key version); erased (null) once the credential is deleted, or superseded and no longer used by a job. */
    sealed: text("sealed"),
    /** The name its owner gave it, else a non-secret hint (a masked login id, the certificate's holder). */
    label: text("label"),
    /** A certificate credential's face (subject, issuer, serial, validity): public, shown with the credential. */
    certificate: text("certificate", { mode: "json" }).$type<CertificateFace>(),
    /**
     * An Open Banking consent's face (consent-face.ts): the accounts consented, until when, and when its tokens end
     * and were last refreshed; public, shown with the credential. Null for other methods.
     */
    consent: text("consent", { mode: "json" }).$type<ConsentFace>(),
    /** The schemas its holder consented to have collected with it (domain/credentials/consent.ts); null: every schema it can serve. */
    schemas: text("schemas", { mode: "json" }).$type<string[]>(),
    /**
     * The consent its holder gave: when, for whom, why, under which text and until when (consent-record.ts). Null on
     * rows older than consent records, which no consent end refuses.
     */
    consentRecord: text("consent_record", { mode: "json" }).$type<ConsentRecord>(),
    /**
     * The job failure (LOGIN_FAILED, LOGIN_LOCKED) that showed the institution refuses this login, and when;
     * null while it is believed good. Jobs on an invalid credential fail with this same code without logging in
     * (job-credential.ts openJobCredential), since every wrong-password attempt of ours brings a real account closer to its lock.
     */
    invalidReason: text("invalid_reason"),
    invalidatedAt: integer("invalidated_at"),
    /** The credential that replaced this one, and when (status SUPERSEDED). */
    supersededBy: text("superseded_by"),
    supersededAt: integer("superseded_at"),
    createdAt: integer("created_at").notNull(),
    deletedAt: integer("deleted_at"),
    /** Why it was deleted (REVOKED_REASONS); null while live, and on rows deleted before reasons were kept. */
    revokedReason: text("revoked_reason", { enum: REVOKED_REASONS }),
  },
  (t) => [
    // One live credential per login or certificate, and one default per provider; the rest may pile up.
    uniqueIndex("credentials_one_live_identity").on(t.workspaceId, t.identity).where(sql`status = 'ACTIVE'`),
    uniqueIndex("credentials_one_default").on(t.workspaceId, t.providerCode).where(sql`status = 'ACTIVE' AND is_default = 1`),
    index("credentials_workspace_provider").on(t.workspaceId, t.providerCode, t.status),
  ],
);
