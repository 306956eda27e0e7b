import { desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Database } from "../../platform/database/client";
import { database, statementOf } from "../../platform/database/client";
import { workspaces } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { contains } from "../../platform/database/contains";
import { type Plan, PLAN_LIMITS } from "./plans";

export type WorkspaceRow = typeof workspaces.$inferSelect;

/** What other modules read of a workspace: its business, whether it is a partner and whether an operator suspended it (its job cap: see jobBilling). */
export async function findWorkspace(d1: D1Database, workspaceId: string): Promise<Pick<WorkspaceRow, "businessNumber" | "isPartner" | "suspendedAt"> | null> {
  const row = await database(d1)
    .select({ businessNumber: workspaces.businessNumber, isPartner: workspaces.isPartner, suspendedAt: workspaces.suspendedAt })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  return row ?? null;
}

export async function workspaceBusinessNumber(d1: D1Database, workspaceId: string): Promise<string | null> {
  return (await findWorkspace(d1, workspaceId))?.businessNumber ?? null;
}

/** Whose plan caps a workspace's jobs, and that plan's monthly job and scraping-step caps and concurrent jobs (null: unlimited). */
export interface JobBilling {
  billingWorkspaceId: string;
  /** When the billing workspace's renewal charge first failed; null while paid up (worker/domain/workspaces/past-due.ts). */
  pastDueSince: number | null;
  monthlyJobCap: number | null;
  monthlyStepCap: number | null;
  concurrentJobs: number | null;
  /** Of them, how many a schedule made may be unfinished at once. */
  concurrentScheduledJobs: number | null;
}

export const suspended = () =>
  new ApiError("WORKSPACE_ACCESS_DENIED", { message: "운영자가 이 워크스페이스의 이용을 정지했습니다. 고객 지원에 문의해 주세요." });

/** The workspace's billing row, for a caller to batch with its own reads; `jobBillingOf` reads the result. */
export function jobBillingStatement(d1: D1Database, workspaceId: string): D1PreparedStatement {
  // Raw: create-context.ts batches it with credentials' raw statement in one round trip, and its test counts reads by this text.
  return d1
    .prepare(
      `SELECT b.id AS billingWorkspaceId, b.monthly_job_cap AS monthlyJobCap, b.plan AS plan, coalesce(w.suspended_at, b.suspended_at) AS suspendedAt, b.past_due_since AS pastDueSince,
         b.results_retention_days AS resultsRetentionDays, w.revision AS revision, b.revision AS billingRevision,
         w.sandbox_only AS sandboxOnly
       FROM workspaces w JOIN workspaces b ON b.id = coalesce(w.billing_workspace_id, w.id) WHERE w.id = ?`,
    )
    .bind(workspaceId);
}

export type JobBillingRow = {
  billingWorkspaceId: string;
  monthlyJobCap: number | null;
  plan: Plan;
  suspendedAt: number | null;
  pastDueSince: number | null;
  /** The billing workspace's chosen results retention (tables.ts); a kept create context may hold an older one (docs/retention.md). */
  resultsRetentionDays: number | null;
  /** The two rows' revisions (tables.ts `revision`) as read. */
  revision: number;
  billingRevision: number;
  /**
   * 1 while the owner has not confirmed their e-mail (opensTo). No revision moves with it: it only ever turns 0, and
   * a kept context's refusal is decided again from a fresh read (jobs/create.ts).
   */
  sandboxOnly: number;
};

/** A suspended workspace, or a business whose partner is suspended, starts no job: WORKSPACE_ACCESS_DENIED. */
export function jobBillingOf(row: JobBillingRow | undefined | null, workspaceId: string): JobBilling {
  if (row?.suspendedAt) throw suspended();
  const limits = PLAN_LIMITS[row?.plan ?? "FREE"];
  return {
    billingWorkspaceId: row?.billingWorkspaceId ?? workspaceId,
    pastDueSince: row?.pastDueSince ?? null,
    // A cap agreed for this workspace overrides its plan's.
    monthlyJobCap: row?.monthlyJobCap ?? limits.monthlyJobs,
    monthlyStepCap: limits.monthlyTaskSteps,
    concurrentJobs: limits.concurrentJobs,
    concurrentScheduledJobs: limits.concurrentScheduledJobs,
  };
}

export async function jobBilling(d1: D1Database, workspaceId: string): Promise<JobBilling> {
  return jobBillingOf(await jobBillingStatement(d1, workspaceId).first<JobBillingRow>(), workspaceId);
}

/**
 * A workspace of its own for a partner's connection to one business, to
 * batch with the connection row. The partner's plan caps its jobs, so a
 * partner's cap covers all its businesses together.
 */
export function insertConnectionWorkspace(db: Database, input: { id: string; businessNumber: string; partnerWorkspaceId: string; createdAt: number }) {
  return db.insert(workspaces).values({
    id: input.id,
    name: `connection ${input.businessNumber}`,
    businessNumber: input.businessNumber,
    billingWorkspaceId: input.partnerWorkspaceId,
    createdAt: input.createdAt,
  });
}

/** A workspace someone signed up for, to batch with its owner's membership. */
/** A self-serve workspace: sandbox providers only until its owner confirms their e-mail (openToRealInstitutions). */
export function insertOwnWorkspace(db: Database, input: { id: string; name: string; businessNumber: string; createdAt: number }) {
  return db.insert(workspaces).values({ id: input.id, name: input.name, businessNumber: input.businessNumber, createdAt: input.createdAt, sandboxOnly: true });
}

export async function openToRealInstitutions(d1: D1Database, workspaceIds: string[]): Promise<void> {
  if (workspaceIds.length > 0) await database(d1).update(workspaces).set({ sandboxOnly: false }).where(inArray(workspaces.id, workspaceIds));
}

export async function isSandboxOnly(d1: D1Database, workspaceId: string): Promise<boolean> {
  return (await database(d1).select({ sandboxOnly: workspaces.sandboxOnly }).from(workspaces).where(eq(workspaces.id, workspaceId)).get())?.sandboxOnly ?? false;
}

/**
 * The one rule of a workspace whose owner has not confirmed their e-mail (sandboxOnly): the sandbox's providers only.
 * It holds no credential of a real institution, runs no job or schedule at one, and spends none of the deployment's
 * own keys at an official API (nts.business-status, Open Banking's consent): nobody has shown they can be reached at
 * the address that signed up.
 */
export const opensTo = (sandboxOnly: boolean, provider: { sandbox: boolean }): boolean => provider.sandbox || !sandboxOnly;

/** `opensTo`, else 403 WORKSPACE_ACCESS_DENIED saying what to do. */
export function assertOpenTo(sandboxOnly: boolean, provider: { sandbox: boolean }): void {
  if (opensTo(sandboxOnly, provider)) return;
  throw new ApiError("WORKSPACE_ACCESS_DENIED", { message: "이메일 주소를 확인하기 전에는 샌드박스 기관만 쓸 수 있습니다. 가입할 때 받은 메일의 링크를 눌러 주세요." });
}

/** `assertOpenTo` for a workspace named by id, read only for a real institution. */
export async function assertMayUseProvider(d1: D1Database, workspaceId: string, provider: { sandbox: boolean }): Promise<void> {
  if (!provider.sandbox) assertOpenTo(await isSandboxOnly(d1, workspaceId), provider);
}

/**
 * A certificate, or any credential of a tax portal, is checked against the business it is for (the certificate's
 * virtual ID, the portal account's business): a workspace without a business number cannot register one, rather
 * than skip the check. 400 INVALID_BUSINESS_REGISTRATION_NUMBER, saying so.
 */
export function assertBusinessFor(businessNumber: string | null, provider: { kind: string }, authMethod: string): void {
  if (businessNumber || (provider.kind !== "TAX_PORTAL" && authMethod !== "CERTIFICATE")) return;
  throw new ApiError("INVALID_BUSINESS_REGISTRATION_NUMBER", {
    message: "워크스페이스에 사업자등록번호가 없어 인증서나 국세 포털 자격 증명을 등록할 수 없습니다. 사업자등록번호가 있는 워크스페이스에서 등록해 주세요.",
  });
}

export async function workspaceNames(d1: D1Database, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await database(d1).select({ id: workspaces.id, name: workspaces.name }).from(workspaces).where(inArray(workspaces.id, ids)).all();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The plan of each of `ids` that exists. */
export async function workspacePlans(d1: D1Database, ids: string[]): Promise<Map<string, Plan>> {
  if (ids.length === 0) return new Map();
  const rows = await database(d1).select({ id: workspaces.id, plan: workspaces.plan }).from(workspaces).where(inArray(workspaces.id, ids)).all();
  return new Map(rows.map((r) => [r.id, r.plan]));
}

/** Who hears of a workspace's events: itself and, for a connection workspace, the partner acting for it (its billing workspace). */
export function recipientsOf(workspaceId: string, billingWorkspaceId: string | null | undefined): string[] {
  return billingWorkspaceId && billingWorkspaceId !== workspaceId ? [workspaceId, billingWorkspaceId] : [workspaceId];
}

/** `recipientsOf` as SQL, for a statement that has only the workspace's id (bound at `workspace`): a list for `IN (...)`. */
export const recipientsSql = (workspace: string) => `${workspace}, (SELECT coalesce(billing_workspace_id, id) FROM workspaces WHERE id = ${workspace})`;

/** SQL for: a workspace and its billing workspace (ids bound at the parameters named) are at these revisions; a missing row is at 0. */
export const revisionsHold = (workspace: string, billing: string, workspaceRevision: string, billingRevision: string) =>
  `coalesce((SELECT revision FROM workspaces WHERE id = ${workspace}), 0) = ${workspaceRevision} AND coalesce((SELECT revision FROM workspaces WHERE id = ${billing}), 0) = ${billingRevision}`;

/** `recipientsOf`, for a caller without the workspace's billing workspace at hand. */
export async function eventRecipients(d1: D1Database, workspaceId: string): Promise<string[]> {
  const row = await database(d1).select({ partner: workspaces.billingWorkspaceId }).from(workspaces).where(eq(workspaces.id, workspaceId)).get();
  return recipientsOf(workspaceId, row?.partner);
}

/** A partner's public name, what businesses see of it. */
export async function partnerNameOf(d1: D1Database, workspaceId: string): Promise<string | null> {
  const row = await database(d1).select({ name: workspaces.partnerName }).from(workspaces).where(eq(workspaces.id, workspaceId)).get();
  return row?.name ?? null;
}

/** Partners' public names by workspace id (those that named themselves). */
export async function partnerNames(d1: D1Database, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await database(d1).select({ id: workspaces.id, name: workspaces.partnerName }).from(workspaces).where(inArray(workspaces.id, ids)).all();
  return new Map(rows.flatMap((r) => (r.name ? [[r.id, r.name] as const] : [])));
}

export async function setPartnerName(d1: D1Database, workspaceId: string, name: string): Promise<void> {
  await database(d1).update(workspaces).set({ partnerName: name }).where(eq(workspaces.id, workspaceId));
}

/** Suspends (`at`) or restores (null) a workspace; false when there is no such workspace. */
export async function setSuspended(d1: D1Database, workspaceId: string, at: number | null): Promise<boolean> {
  const done = await database(d1).update(workspaces).set({ suspendedAt: at }).where(eq(workspaces.id, workspaceId)).returning({ id: workspaces.id });
  return done.length === 1;
}

/** The statement that moves a workspace to a plan, for a caller to batch with what pays for it (worker/domain/billing/invoices.ts). */
export function planStatement(d1: D1Database, workspaceId: string, plan: Plan): D1PreparedStatement {
  return statementOf(d1, database(d1).update(workspaces).set({ plan }).where(eq(workspaces.id, workspaceId)));
}

/** The statement that marks a workspace past due since `at` (keeping an earlier mark), or paid up (null), for billing to batch. */
export function pastDueStatement(d1: D1Database, workspaceId: string, at: number | null): D1PreparedStatement {
  const pastDueSince = at === null ? null : sql`coalesce(${workspaces.pastDueSince}, ${at})`;
  return statementOf(d1, database(d1).update(workspaces).set({ pastDueSince }).where(eq(workspaces.id, workspaceId)));
}

/** Moves a workspace to another plan; false when there is no such workspace. */
export async function setPlan(d1: D1Database, workspaceId: string, plan: Plan): Promise<boolean> {
  const done = await database(d1).update(workspaces).set({ plan }).where(eq(workspaces.id, workspaceId)).returning({ id: workspaces.id });
  return done.length === 1;
}

/**
 * Workspaces an operator's search names: by id, every workspace of a business number (its own and partners' connection
 * ones), those whose company name holds the term, and `ownedIds` (the users domain finds the workspaces an owner's
 * e-mail names: the members are its tables).
 */
export function workspacesMatching(d1: D1Database, term: string, limit: number, ownedIds: readonly string[] = []): Promise<WorkspaceRow[]> {
  const named = or(eq(workspaces.id, term), eq(workspaces.businessNumber, term), contains(workspaces.name, term), ownedIds.length > 0 ? inArray(workspaces.id, [...ownedIds]) : undefined);
  return database(d1).select().from(workspaces).where(named).orderBy(desc(workspaces.createdAt)).limit(limit).all();
}

/** One workspace whole, for the operator console (which shows no secret: the row holds none). */
export async function workspaceRow(d1: D1Database, workspaceId: string): Promise<WorkspaceRow | null> {
  return (await database(d1).select().from(workspaces).where(eq(workspaces.id, workspaceId)).get()) ?? null;
}

/** The longest consent a holder gives, and what a workspace that set none asks for: a year. */
export const MAX_CONSENT_DAYS = 365;

/** What a consent given now for the workspace records of it: its name and how long consents last there. */
export async function consentTermsOf(d1: D1Database, workspaceId: string): Promise<{ name: string; days: number }> {
  const row = await database(d1).select({ name: workspaces.name, days: workspaces.consentDays }).from(workspaces).where(eq(workspaces.id, workspaceId)).get();
  return { name: row?.name ?? "", days: Math.min(row?.days ?? MAX_CONSENT_DAYS, MAX_CONSENT_DAYS) };
}

/** Sets how long consents given from now on last (1 to MAX_CONSENT_DAYS days); consents already given keep their end. */
export async function setConsentDays(d1: D1Database, workspaceId: string, days: number): Promise<void> {
  await database(d1).update(workspaces).set({ consentDays: days }).where(eq(workspaces.id, workspaceId));
}
