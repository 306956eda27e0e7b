import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { CertificateFace } from "../../domain/certificates/verify";
import type { KnownTargets } from "../../domain/credentials/targets";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

/** What a workspace pays for (worker/domain/workspaces/plans.ts has each one's limits). */
export const PLANS = ["FREE", "PRO", "INTERNAL"] as const;

export const workspaces = sqliteTable(
  "workspaces",
  {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  businessNumber: text("business_number"),
  plan: text("plan", { enum: PLANS }).notNull().default("FREE"),
  /** Monthly job cap agreed for this workspace; null means its plan's (worker/domain/workspaces/plans.ts). */
  monthlyJobCap: integer("monthly_job_cap"),
  isPartner: integer("is_partner", { mode: "boolean" }).notNull().default(false),
  /** The name a partner shows the businesses it acts for (partners/name.ts); null until it names itself. */
  partnerName: text("partner_name"),
  /**
   * The workspace whose plan caps this one's jobs: a connection workspace's
   * partner, so a partner's cap covers all its businesses. Null: itself.
   */
  billingWorkspaceId: text("billing_workspace_id"),
  /** A self-serve workspace whose owner has not confirmed their e-mail yet: sandbox providers only (workspaces/sandbox-only.ts). */
  sandboxOnly: integer("sandbox_only", { mode: "boolean" }).notNull().default(false),
  /** When an operator suspended it (worker/domain/operators/workspace-actions.ts): its keys, its businesses' jobs and its console are refused; null while open. */
  suspendedAt: integer("suspended_at"),
  /** When its plan's renewal charge first failed (worker/domain/billing/renewal.ts); past the grace period no job starts. Null while paid up. */
  pastDueSince: integer("past_due_since"),
  /**
   * A random stamp drawn again on every change to what a job's create decides from: this row's plan, caps,
   * suspension and payment state, any of its credentials, and its webhook endpoints (whom a job born Failed is
   * announced to). Database triggers draw it, whoever writes
   * (drizzle/0036), so a create may keep what it read and insert only at the revision it read
   * (worker/domain/jobs/create-context.ts).
   */
  revision: integer("revision").notNull().default(0),
  createdAt: integer("created_at").notNull(),
},
  // The operator console finds workspaces by business number (workspaces/store.ts workspacesMatching).
  (t) => [index("workspaces_business_number").on(t.businessNumber)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    name: text("name").notNull(),
    /** First characters of the key, shown in listings so a key can be recognised without revealing it. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    hash: text("hash").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
    /** May list, issue and revoke the workspace's keys. */
    canManageKeys: integer("can_manage_keys", { mode: "boolean" }).notNull().default(false),
    /** Issued to a command-line client through the device grant (it expires; the console marks it). */
    deviceIssued: integer("device_issued", { mode: "boolean" }).notNull().default(false),
    /** The person a device-grant key acts for: it is revoked when they leave the workspace (users/members.ts). Null for the workspace's own keys. */
    issuedToUserId: text("issued_to_user_id"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.hash), index("api_keys_workspace").on(t.workspaceId)],
);

export const JOB_STATUSES = ["PENDING", "RUNNING", "SUCCEEDED", "FAILED"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    /** The workspace whose monthly cap the job counts against (see workspaces.billingWorkspaceId), copied at insert so the cap is counted within this table. */
    billingWorkspaceId: text("billing_workspace_id"),
    providerCode: text("provider_code").notNull(),
    schema: text("schema").notNull(),
    params: text("params", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull(),
    credentialId: text("credential_id"),
    completedTaskCount: integer("completed_task_count").notNull().default(0),
    totalTaskCount: integer("total_task_count").notNull().default(0),
    recordCount: integer("record_count").notNull().default(0),
    /** The spec's job error object, set only when status is FAILED. */
    error: text("error", { mode: "json" }).$type<import("../../../contracts/job-failures").JobError>(),
    /** Automatic resumptions so far; drives backoff. */
    attempt: integer("attempt").notNull().default(0),
    /** The credential lease's fence of the job's latest grant: a unit commits only under the newest fence of its credential. */
    leaseFence: integer("lease_fence").notNull().default(0),
    /** When the sweep sent the plan of a job still PENDING again (its first plan message may be lost); it does so once. */
    planResentAt: integer("plan_resent_at"),
    /** While the job waits for its credential behind others: how many are ahead of it (durable-objects/credential-lock.ts); null otherwise. */
    queuePosition: integer("queue_position"),
    /** While the job waits out its provider's maintenance window (pipeline/executor.ts): when it goes on; null otherwise. */
    resumesAt: integer("resumes_at"),
    /** An incremental job's base (params.since): its results are the changes since that job's collection (results/changes.ts). */
    sinceJobId: text("since_job_id"),
    /** Set when an incremental job succeeds: the R2 object of its changes and where their CSV rows start. */
    changesResultId: text("changes_result_id"),
    changesCsvOffset: integer("changes_csv_offset"),
    /** Where its results go once it succeeds (worker/domain/deliveries/); null: nowhere but the API. */
    deliveryRouteId: text("delivery_route_id"),
    /** A schedule's run (schedules/run.ts): the schedule and the occurrence it ran for, one job per occurrence. */
    scheduleId: text("schedule_id"),
    scheduledFor: integer("scheduled_for"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** createdAt + maxWaitSeconds: past it the sweep fails the job with JOB_TIMEOUT. */
    deadlineAt: integer("deadline_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [
    index("jobs_workspace_created").on(t.workspaceId, t.createdAt, t.id),
    index("jobs_status_deadline").on(t.status, t.deadlineAt),
    index("jobs_credential_fence").on(t.credentialId, t.leaseFence),
    index("jobs_billing_created").on(t.billingWorkspaceId, t.createdAt),
    uniqueIndex("jobs_schedule_occurrence").on(t.scheduleId, t.scheduledFor).where(sql`schedule_id IS NOT NULL`),
  ],
);

export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    workspaceId: text("workspace_id").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the canonical request, to tell a retry from a different request. */
    requestHash: text("request_hash").notNull(),
    jobId: text("job_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] }), index("idempotency_expires").on(t.expiresAt)],
);

export const UNIT_STATUSES = ["QUEUED", "DONE"] as const;

// Stored WITHOUT ROWID since drizzle/0034 (drizzle cannot declare it): the table is its primary key's index, so D1
// counts one row written per unit planned, not two (docs/costs.md).
export const taskUnits = sqliteTable(
  "task_units",
  {
    jobId: text("job_id").notNull().references(() => jobs.id),
    unitIndex: integer("unit_index").notNull(),
    targetId: text("target_id"),
    targetAttributes: text("target_attributes", { mode: "json" }).$type<Record<string, string>>(),
    segmentStart: text("segment_start"),
    segmentEnd: text("segment_end"),
    status: text("status", { enum: UNIT_STATUSES }).notNull().default("QUEUED"),
    recordCount: integer("record_count"),
    // The R2 object holding the committed records (every store writes a new one, so a stale delivery's late write
    // cannot touch them; none for a unit without records), set with DONE. Units committed together share one object,
    // named for the first of them (`result_unit`; null in rows from before: the unit's own), all their NDJSON lines
    // and then all their CSV rows, in unit order: a unit's lines lie at [json_offset, json_end) and its rows at
    // [csv_offset, csv_end) (in rows from before, its lines end where its rows start, and its rows at the object's end).
    resultId: text("result_id"),
    resultUnit: integer("result_unit"),
    jsonOffset: integer("json_offset").notNull().default(0),
    jsonEnd: integer("json_end"),
    csvOffset: integer("csv_offset"),
    csvEnd: integer("csv_end"),
    attempts: integer("attempts").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.unitIndex] })],
);

// SUPERSEDED: the same login or certificate was registered again; its secret is erased once no unfinished job
// still runs on it, since jobs finish on the credential they started with.
export const CREDENTIAL_STATUSES = ["ACTIVE", "SUPERSEDED", "DELETED"] as const;
export const CHECK_STATES = ["CHECKING", "VALID", "INVALID", "UNKNOWN"] as const;

export const credentials = sqliteTable(
  "credentials",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    /** The provider it logs in at, or GLOBAL_PROVIDER for a certificate that serves every provider taking certificates. */
    providerCode: text("provider_code").notNull(),
    authMethod: text("auth_method", { enum: ["PROVIDER_LOGIN", "CERTIFICATE"] }).notNull(),
    /**
     * What makes two registrations the same credential (credentials/identity.ts): the certificate's issuer and
     * serial, or a hash of the provider and login id. Null only on rows older than identities, until the
     * identity backfill (credentials/identity-backfill.ts) reads it from their secret.
     */
    identity: text("identity"),
    /** The credential jobs for its provider take when they name none (at most one live per provider). */
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    /** The business it logs in for: the workspace's own unless registered for another (an accounting firm's clients). */
    businessNumber: text("business_number"),
    /**
     * The accounts and cards the institution showed the last job on this credential that looked (their ids as
     * shown, and when): a job naming another is refused at creation (credentials/targets.ts).
     */
    knownTargets: text("known_targets", { mode: "json" }).$type<KnownTargets>(),
    /**
     * The login check run when it is registered or on request (pipeline/probe.ts): CHECKING until the probe
     * `check_id` names settles it VALID, INVALID (the institution or the user's side refused: `check_error`) or
     * UNKNOWN (the probe could not tell). Null: never checked (older rows, global certificates until asked).
     */
    checkState: text("check_state", { enum: CHECK_STATES }),
    checkId: text("check_id"),
    checkError: text("check_error", { mode: "json" }).$type<import("../../../contracts/job-failures").JobError>(),
    checkedAt: integer("checked_at"),
    /** The nearest warning of its certificate's expiry already sent (30, 7, 1 days ahead: credentials/expiry-warnings.ts). */
    expiryWarnedDays: integer("expiry_warned_days"),
    status: text("status", { enum: CREDENTIAL_STATUSES }).notNull().default("ACTIVE"),
    /** Envelope-encrypted secret material (JSON of ciphertext, iv, wrapped data key, key version); erased (null) once the credential is deleted, or superseded and no longer used by a job. */
    sealed: text("sealed"),
    /** The name its owner gave it, else a non-secret hint (a masked login id, the certificate's holder). */
    label: text("label"),
    /** A certificate credential's face (subject, issuer, serial, validity): public, shown with the credential. */
    certificate: text("certificate", { mode: "json" }).$type<CertificateFace>(),
    /** The schemas its holder consented to have collected with it (credentials/consent.ts); null: every schema it can serve. */
    schemas: text("schemas", { mode: "json" }).$type<string[]>(),
    /**
     * The job failure (LOGIN_FAILED, LOGIN_LOCKED) that showed the institution refuses this login, and when;
     * null while it is believed good. Jobs on an invalid credential fail NO_VALID_CREDENTIAL without logging in,
     * since every wrong-password attempt of ours brings a real account closer to its lock.
     */
    invalidReason: text("invalid_reason"),
    invalidatedAt: integer("invalidated_at"),
    /** The credential that replaced this one, and when (status SUPERSEDED). */
    supersededBy: text("superseded_by"),
    supersededAt: integer("superseded_at"),
    createdAt: integer("created_at").notNull(),
    deletedAt: integer("deleted_at"),
  },
  (t) => [
    // One live credential per login or certificate, and one default per provider; the rest may pile up.
    uniqueIndex("credentials_one_live_identity").on(t.workspaceId, t.identity).where(sql`status = 'ACTIVE'`),
    uniqueIndex("credentials_one_default").on(t.workspaceId, t.providerCode).where(sql`status = 'ACTIVE' AND is_default = 1`),
    index("credentials_workspace_provider").on(t.workspaceId, t.providerCode, t.status),
  ],
);

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
    /** A recovery session's credential: the end-user re-enters only its secret, and it keeps its id (credentials/recovery.ts). */
    recoversCredentialId: text("recovers_credential_id"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [
    uniqueIndex("registration_sessions_token").on(t.tokenHash),
    index("registration_sessions_workspace").on(t.workspaceId, t.createdAt),
    // The sweep finds sessions that expired while PENDING (registration/expiry.ts).
    index("registration_sessions_status_expires").on(t.status, t.expiresAt),
    // One recovery taking input per credential.
    uniqueIndex("registration_sessions_one_recovery").on(t.recoversCredentialId).where(sql`status = 'PENDING'`),
  ],
);

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

/** A person who signs in to the console. */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Lower-cased, so one address cannot sign up twice in another case. */
    email: text("email").notNull(),
    /** `pbkdf2-sha256$<iterations>$<salt>$<hash>` (users/password.ts): the parameters travel with the hash, so they can be raised later. */
    passwordHash: text("password_hash").notNull(),
    /** When the user followed the link mailed at sign-up; null until then. */
    emailVerifiedAt: integer("email_verified_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("users_email").on(t.email)],
);

export const MEMBER_ROLES = ["owner", "member"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const workspaceMembers = sqliteTable(
  "workspace_members",
  {
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    userId: text("user_id").notNull().references(() => users.id),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index("workspace_members_user").on(t.userId)],
);

/**
 * An owner's invitation to join a workspace, mailed as a one-time link (users/invitations.ts): only the token's
 * SHA-256 is kept. Pending while neither accepted nor revoked and before it expires.
 */
export const workspaceInvitations = sqliteTable(
  "workspace_invitations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    /** Lower-cased, as users.email: only the person signed in with this address may accept. */
    email: text("email").notNull(),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: integer("accepted_at"),
    acceptedBy: text("accepted_by"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("workspace_invitations_token").on(t.tokenHash), index("workspace_invitations_workspace").on(t.workspaceId, t.createdAt)],
);

/** A signed-in browser. */
export const consoleSessions = sqliteTable(
  "console_sessions",
  {
    /** SHA-256 of the cookie's token, hex; the token itself is never stored. */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("console_sessions_user").on(t.userId)],
);

/** Sign-in attempts in the current window per e-mail address and per client address (console-sessions/login-attempts.ts). */
export const loginAttempts = sqliteTable("login_attempts", {
  /** `ip:<address>` (every attempt), `email:<e-mail>` (failures on the account), `guess:<e-mail>|<address>` (one address's failures on it). */
  subject: text("subject").primaryKey(),
  windowStartedAt: integer("window_started_at").notNull(),
  attempts: integer("attempts").notNull(),
  lastAttemptAt: integer("last_attempt_at"),
});

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

export const ACCOUNT_LINK_PURPOSES = ["UNLOCK", "VERIFY_EMAIL"] as const;

/** One-time links mailed to a user (worker/domain/users/account-links.ts): only the token's SHA-256 is kept. */
export const accountLinks = sqliteTable("account_links", {
  tokenHash: text("token_hash").primaryKey(),
  userId: text("user_id").notNull(),
  purpose: text("purpose", { enum: ACCOUNT_LINK_PURPOSES }).notNull(),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});

export const DEVICE_CODE_STATUSES = ["PENDING", "APPROVED", "DENIED", "CONSUMED"] as const;

/** An RFC 8628 device authorization: a command-line client waits on it until a signed-in user approves it. */
export const deviceCodes = sqliteTable(
  "device_codes",
  {
    /** SHA-256 of the device code the client polls with; the code itself is never stored. */
    deviceCodeHash: text("device_code_hash").primaryKey(),
    /** SHA-256 of the normalized user code (letters only, upper case) the user types into the console. */
    userCodeHash: text("user_code_hash").notNull(),
    clientName: text("client_name").notNull(),
    /** The platform the client says it runs on (RFC 8628 has no field for it; ours), shown on the approval page. */
    platform: text("platform"),
    status: text("status", { enum: DEVICE_CODE_STATUSES }).notNull().default("PENDING"),
    /** Seconds the client must wait between polls; raised by 5 on every slow_down. */
    intervalSeconds: integer("interval_seconds").notNull(),
    lastPolledAt: integer("last_polled_at"),
    /** Set on approval: the workspace the client's key is for and who approved it. */
    workspaceId: text("workspace_id"),
    approvedBy: text("approved_by"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [uniqueIndex("device_codes_user_code").on(t.userCodeHash)],
);

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

export const SCHEDULE_STATUSES = ["ACTIVE", "PAUSED"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Recurring collections the service runs itself (worker/domain/schedules/): each occurrence a normal job. */
export const schedules = sqliteTable(
  "schedules",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    providerCode: text("provider_code").notNull(),
    schema: text("schema").notNull(),
    /** The credential each run logs in with; null: the provider's only or default one at each run. */
    credentialId: text("credential_id"),
    /** Five-field cron, in Korean time (schedules/cron.ts). */
    cron: text("cron").notNull(),
    /** The schema's params other than the date range (accounts, cards, currency). */
    params: text("params", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** Dated schemas: each run collects the `lastDays` days ending on its own day (KST). */
    lastDays: integer("last_days"),
    /** Where each run's results go (worker/domain/deliveries/); null: nowhere but the API. */
    deliveryRouteId: text("delivery_route_id"),
    /** Dated schemas: runs after the first succeeded one pass its `since`, collecting only what changed. */
    incremental: integer("incremental", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: SCHEDULE_STATUSES }).notNull(),
    /** Why the service paused it (repeated non-retryable failures), in Korean; null when a person paused it or it runs. */
    pausedReason: text("paused_reason"),
    /** The next occurrence to run (ms); null while paused. */
    nextRunAt: integer("next_run_at"),
    /** Runs that ended Failed and not retryable, in a row: at SCHEDULE_FAILURE_LIMIT the schedule pauses itself. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /** Occurrences not run because the schedule's previous run was still under way (schedules/run.ts). */
    skippedRuns: integer("skipped_runs").notNull().default(0),
    /** The latest of them (ms); null when none was skipped. */
    lastSkippedFor: integer("last_skipped_for"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("schedules_workspace").on(t.workspaceId, t.createdAt, t.id), index("schedules_due").on(t.status, t.nextRunAt)],
);

export const OPERATOR_ROLES = ["viewer", "support", "admin"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** A person who runs the service (worker/domain/operators/): an account of its own, never a console user's, signing in with a second factor. */
export const operators = sqliteTable(
  "operators",
  {
    id: text("id").primaryKey(),
    /** Lower-cased. */
    email: text("email").notNull(),
    /** As users' (users/password.ts). */
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: OPERATOR_ROLES }).notNull(),
    /** The RFC 6238 secret, sealed by the vault and bound to the operator (operators/second-factor.ts). */
    totpSealed: text("totp_sealed").notNull(),
    /** The time step of the last code accepted: a code opens one session, never a second (RFC 6238 section 5.2). */
    totpLastStep: integer("totp_last_step").notNull().default(0),
    disabledAt: integer("disabled_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("operators_email").on(t.email)],
);

/** A signed-in operator: the bearer token of /admin/api and the /admin cookie, stored only as its hash. */
export const operatorSessions = sqliteTable(
  "operator_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    operatorId: text("operator_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("operator_sessions_operator").on(t.operatorId)],
);

/**
 * What operators did and looked at, written before it takes effect (operators/audit.ts). Append-only: triggers in
 * its migration refuse every UPDATE and DELETE, so not even a bug in our own code can rewrite it.
 */
export const operatorAudit = sqliteTable(
  "operator_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    operatorId: text("operator_id").notNull(),
    /** Kept beside the id: the log reads on its own, whatever later becomes of the account. */
    operatorEmail: text("operator_email").notNull(),
    action: text("action").notNull(),
    targetKind: text("target_kind").notNull(),
    targetId: text("target_id").notNull(),
    /** The operator's words; required for every action that changes something, null for looking. */
    reason: text("reason"),
    /** What the action was given (a new plan, an outage's times), JSON; never a secret. */
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>(),
    requestId: text("request_id").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("operator_audit_target").on(t.targetKind, t.targetId, t.id), index("operator_audit_operator").on(t.operatorId, t.id)],
);

/** An institution's outage announced by an operator: part of its maintenance calendar (catalog/outages.ts) until it ends or is withdrawn. */
export const providerOutages = sqliteTable(
  "provider_outages",
  {
    id: text("id").primaryKey(),
    providerCode: text("provider_code").notNull(),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    /** Shown to partners with the window, in Korean. */
    note: text("note").notNull(),
    announcedBy: text("announced_by").notNull(),
    withdrawnAt: integer("withdrawn_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("provider_outages_provider").on(t.providerCode, t.endsAt)],
);

/** Operators' alerts on the flagged codes (worker/domain/alerts/): one per code and provider while its rate stays up. */
export const operatorAlerts = sqliteTable(
  "operator_alerts",
  {
    id: text("id").primaryKey(),
    code: text("code").notNull(),
    /** The provider the occurrences were at; `-` for those of no provider (an API request's error). */
    providerCode: text("provider_code").notNull(),
    threshold: integer("threshold").notNull(),
    windowMs: integer("window_ms").notNull(),
    /** Occurrences from the first of the window that opened it, counted while open (a minute behind at most). */
    occurrences: integer("occurrences").notNull(),
    /** One occurrence to start from: a request id or a job id. */
    example: text("example").notNull(),
    openedAt: integer("opened_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    resolvedAt: integer("resolved_at"),
  },
  (t) => [index("operator_alerts_opened").on(t.openedAt)],
);

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

export const DELIVERY_ROUTE_KINDS = ["S3", "SFTP"] as const;
export type DeliveryRouteKind = (typeof DELIVERY_ROUTE_KINDS)[number];

/** Where a workspace's succeeded jobs' results are delivered (worker/domain/deliveries/): an S3-compatible bucket or an SFTP server. */
export const deliveryRoutes = sqliteTable(
  "delivery_routes",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    name: text("name").notNull(),
    kind: text("kind", { enum: DELIVERY_ROUTE_KINDS }).notNull(),
    /** Where and as whom, without the secret (deliveries/config.ts). */
    config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** The S3 secret access key or the SFTP password or private key, sealed by the vault and bound to the route. */
    sealedSecret: text("sealed_secret").notNull(),
    createdAt: integer("created_at").notNull(),
    deletedAt: integer("deleted_at"),
  },
  (t) => [index("delivery_routes_workspace").on(t.workspaceId, t.createdAt, t.id)],
);

export const ROUTE_DELIVERY_STATUSES = ["PENDING", "SENT", "FAILED"] as const;

/** One job's results to one route, with its tries: the route's delivery log. */
export const routeDeliveries = sqliteTable(
  "route_deliveries",
  {
    id: text("id").primaryKey(),
    routeId: text("route_id").notNull(),
    jobId: text("job_id").notNull(),
    status: text("status", { enum: ROUTE_DELIVERY_STATUSES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** Why the last try failed, truncated; null once sent. */
    lastError: text("last_error"),
    /** What landed: each file's name and size in bytes, once sent. */
    files: text("files", { mode: "json" }).$type<{ name: string; bytes: number }[]>(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("route_deliveries_one_per_job").on(t.routeId, t.jobId), index("route_deliveries_route").on(t.routeId, t.createdAt, t.id)],
);

export const SUBSCRIPTION_STATUSES = ["ACTIVE", "PAST_DUE"] as const;

/**
 * A workspace's paid plan over time (worker/domain/billing/): the period paid for, a change waiting for the period's end, and
 * the card charged. A workspace without a row has never paid: FREE, or an operator's INTERNAL. `workspaces.plan` stays
 * the plan every cap reads; billing moves it.
 */
export const subscriptions = sqliteTable("subscriptions", {
  workspaceId: text("workspace_id").primaryKey().references(() => workspaces.id),
  status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
  currentPeriodStart: integer("current_period_start").notNull(),
  currentPeriodEnd: integer("current_period_end").notNull(),
  /** The plan the workspace moves to when the period ends (a downgrade or a cancellation); null for none. */
  pendingPlan: text("pending_plan", { enum: PLANS }),
  paymentMethodId: text("payment_method_id"),
  /** When a renewal's charge first failed; null while paid up. */
  pastDueSince: integer("past_due_since"),
  updatedAt: integer("updated_at").notNull(),
});

/** A card registered with the payment gateway for recurring charges: only the gateway's billing key, sealed, and how to show it. */
export const paymentMethods = sqliteTable(
  "payment_methods",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    /** The gateway's billing key, sealed by the vault and bound to this row. */
    sealedBillingKey: text("sealed_billing_key").notNull(),
    /** SHA-256 of the billing key, hex: how the gateway's "billing key deleted" webhook finds the row. */
    billingKeyHash: text("billing_key_hash").notNull(),
    /** The card's last four digits: the number itself never reaches storage. */
    cardLast4: text("card_last4").notNull(),
    createdAt: integer("created_at").notNull(),
    deletedAt: integer("deleted_at"),
  },
  (t) => [index("payment_methods_workspace").on(t.workspaceId, t.createdAt, t.id)],
);

export const INVOICE_STATUSES = ["OPEN", "PAID", "VOID", "REFUNDED"] as const;
export const INVOICE_KINDS = ["UPGRADE", "RENEWAL"] as const;

/**
 * What a workspace is asked to pay for one period of a plan, in won, VAT shown apart as Korean invoices show it. The id
 * is the gateway's payment id too, so a charge retried after a crash is the same payment and never a second one.
 */
export const invoices = sqliteTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    plan: text("plan", { enum: PLANS }).notNull(),
    /** UPGRADE: charged when asked, the refusal answered at once; RENEWAL: charged by the cron, retried on a schedule. */
    kind: text("kind", { enum: INVOICE_KINDS }).notNull().default("UPGRADE"),
    periodStart: integer("period_start").notNull(),
    periodEnd: integer("period_end").notNull(),
    /** Jobs past the plan's allowance in the period before (a renewal bills them), and what they add to the supply amount. */
    overageJobs: integer("overage_jobs").notNull().default(0),
    overageAmount: integer("overage_amount").notNull().default(0),
    /** 공급가액: the price before VAT, overage included. */
    supplyAmount: integer("supply_amount").notNull(),
    /** 부가세: 10% of the supply amount, rounded down to the won. */
    vatAmount: integer("vat_amount").notNull(),
    /** 합계. */
    totalAmount: integer("total_amount").notNull(),
    /** Usage credits applied: the card is charged 합계 less this. */
    creditAmount: integer("credit_amount").notNull().default(0),
    /** Charges tried; a renewal's next one waits until nextAttemptAt (null: no more automatic tries). */
    attempts: integer("attempts").notNull().default(0),
    /** When the last charge began: an upgrade left unpaid a day after it is voided (worker/domain/billing/void.ts), never one being charged. */
    lastAttemptAt: integer("last_attempt_at"),
    nextAttemptAt: integer("next_attempt_at"),
    status: text("status", { enum: INVOICE_STATUSES }).notNull(),
    /** The gateway's transaction, once paid. */
    gatewayTransactionId: text("gateway_transaction_id"),
    /** The last charge's refusal (a catalog code), while unpaid. */
    lastFailureCode: text("last_failure_code"),
    createdAt: integer("created_at").notNull(),
    paidAt: integer("paid_at"),
  },
  // The cron looks for open invoices every minute (renewals to retry, upgrades to void): those, not every invoice ever.
  (t) => [index("invoices_workspace").on(t.workspaceId, t.createdAt, t.id), index("invoices_open").on(t.status, t.kind)],
);

export const LEDGER_ENTRIES = ["INVOICED", "CREDIT_APPLIED", "PAID", "VOIDED", "CREDIT_RETURNED", "REFUNDED"] as const;

/**
 * Every money movement of a workspace, one row each, never changed or removed (worker/domain/billing/ledger.ts): what was
 * invoiced (positive), covered by usage credits, paid or voided (negative). A workspace's balance is the sum of its rows.
 */
export const billingLedger = sqliteTable(
  "billing_ledger",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    invoiceId: text("invoice_id").notNull(),
    entry: text("entry", { enum: LEDGER_ENTRIES }).notNull(),
    /** Won: what the workspace owes grows by a positive amount and shrinks by a negative one. */
    amount: integer("amount").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  // One payment per invoice, ever: a retried charge cannot write a second.
  (t) => [index("billing_ledger_workspace").on(t.workspaceId, t.createdAt), uniqueIndex("billing_ledger_one_entry_per_invoice").on(t.invoiceId, t.entry)],
);

/**
 * Won an operator grants a workspace (worker/domain/billing/credits.ts), spent on its invoices before any card is charged,
 * the soonest to expire first, until it expires. The ledger records each use.
 */
export const usageCredits = sqliteTable(
  "usage_credits",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    amount: integer("amount").notNull(),
    remaining: integer("remaining").notNull(),
    expiresAt: integer("expires_at").notNull(),
    reason: text("reason").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  // A credit spent twice at once would go below zero: the database refuses, and the invoice that raced it is not written.
  (t) => [index("usage_credits_workspace").on(t.workspaceId, t.expiresAt), check("usage_credits_never_negative", sql`${t.remaining} >= 0`)],
);

/** How much of a usage credit an invoice took, so a voided invoice gives exactly that back, once (worker/domain/billing/void.ts). */
export const creditUses = sqliteTable(
  "credit_uses",
  {
    invoiceId: text("invoice_id").notNull(),
    creditId: text("credit_id").notNull(),
    amount: integer("amount").notNull(),
    returnedAt: integer("returned_at"),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.creditId] })],
);
