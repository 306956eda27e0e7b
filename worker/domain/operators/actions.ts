import { assertGrantable, grantCredit, type UsageCreditRow } from "../billing/credits";
import type { InvoiceRow } from "../billing/invoices";
import { portOneGateway } from "../billing/portone";
import { refundInvoice } from "../billing/refunds";
import { announceOutage, type OutageRow, withdrawOutage } from "../catalog/outages";
import type { ProviderDefinition } from "../catalog/providers";
import { listApiKeys } from "../api-keys/store";
import { credentialRow, type CredentialRow, credentialWorkspace, listCredentials } from "../credentials/store";
import { ApiError } from "../../platform/errors/api-error";
import { createJob } from "../jobs/create";
import { findJobById, type JobRow, listJobs } from "../jobs/store";
import { connectionById } from "../partners/connections";
import type { Plan } from "../workspaces/plans";
import { setPlan, type WorkspaceRow, workspaceRow, workspacesMatching } from "../workspaces/store";
import { changeSuspension } from "../api-keys/suspension";
import { closeReport, findReport, latestReports, type ReportRow, reportPage } from "../reports/store";
import { type AuditEntry, markAction } from "./audit";
import { assertOperatorMay, type OperatorAction } from "./permissions";
import { confirmFreshCode } from "./sign-in";
import type { Operator } from "./store";
import { ownerEmails, workspacesOwnedByEmail } from "../users/members";

/**
 * What operators do, for the operator API and the /admin console alike: each checks the operator's role, writes its
 * audit line, and only then acts or shows (domain/operators/audit.ts), so neither front can skip a step.
 */
export interface Actor {
  operator: Operator;
  requestId: string;
}

type ActionsEnv = Env;

/** What one answer lists at most: search matches, a workspace's latest jobs, its keys and its credentials. */
export const MAX_MATCHES = 20;
export const RECENT_JOBS = 20;
export const LISTED = 100;

async function mark(env: ActionsEnv, actor: Actor, action: OperatorAction, entry: AuditEntry): Promise<void> {
  assertOperatorMay(actor.operator.role, action);
  await markAction(env.DB, actor.operator, actor.requestId, entry);
}

/** As `mark`, for the actions that move money: the operator's fresh authenticator code first (domain/operators/sign-in.ts `confirmFreshCode`). */
async function markConfirmed(env: ActionsEnv, actor: Actor, action: OperatorAction, code: string | undefined, entry: AuditEntry): Promise<void> {
  assertOperatorMay(actor.operator.role, action);
  await confirmFreshCode(env, actor.operator, code, actor.requestId);
  await markAction(env.DB, actor.operator, actor.requestId, entry);
}

async function existingWorkspace(env: ActionsEnv, id: string): Promise<WorkspaceRow> {
  const workspace = await workspaceRow(env.DB, id);
  if (!workspace) throw new ApiError("WORKSPACE_NOT_FOUND");
  return workspace;
}

export type SearchMatch = { kind: "workspace" | "job" | "credential" | "connection"; id: string; workspace: WorkspaceRow | null; ownerEmail: string | null };

/**
 * Workspaces (partners' too) by id, business number (123-45-67890 as people write it), company name or owner's e-mail
 * (any part of either), and jobs, credentials and connections by id; each with its workspace's owner's e-mail.
 */
export async function searchTargets(env: ActionsEnv, actor: Actor, asked: string): Promise<SearchMatch[]> {
  const term = /^\d{3}-\d{2}-\d{5}$/.test(asked) ? asked.replaceAll("-", "") : asked;
  await mark(env, actor, "workspaces.read", { action: "search", targetKind: "query", targetId: term, reason: null });
  const [workspaces, job, credentialOf, connection] = await Promise.all([
    workspacesOwnedByEmail(env.DB, term, MAX_MATCHES).then((owned) => workspacesMatching(env.DB, term, MAX_MATCHES, owned)),
    findJobById(env.DB, term),
    credentialWorkspace(env.DB, term),
    connectionById(env.DB, term),
  ]);
  const owners = new Map(workspaces.map((w) => [w.id, w]));
  const ownerOf = async (workspaceId: string) => owners.get(workspaceId) ?? (await workspaceRow(env.DB, workspaceId));
  const found: Omit<SearchMatch, "ownerEmail">[] = [
    ...workspaces.map((w) => ({ kind: "workspace" as const, id: w.id, workspace: w })),
    ...(job ? [{ kind: "job" as const, id: job.id, workspace: await ownerOf(job.workspaceId) }] : []),
    ...(credentialOf ? [{ kind: "credential" as const, id: term, workspace: await ownerOf(credentialOf) }] : []),
    ...(connection ? [{ kind: "connection" as const, id: connection.id, workspace: await ownerOf(connection.workspaceId) }] : []),
  ].slice(0, MAX_MATCHES);
  const emails = await ownerEmails(env.DB, found.flatMap((m) => (m.workspace ? [m.workspace.id] : [])));
  return found.map((m) => ({ ...m, ownerEmail: (m.workspace && emails.get(m.workspace.id)) ?? null }));
}

/** A workspace with its owner's e-mail, keys, credentials and latest jobs: rows that hold no secret an operator could read (hashes and sealed values are left out by the views). */
export async function inspectWorkspace(env: ActionsEnv, actor: Actor, id: string) {
  const workspace = await existingWorkspace(env, id);
  await mark(env, actor, "workspaces.read", { action: "workspace.view", targetKind: "workspace", targetId: id, reason: null });
  const [keys, credentials, jobs, emails] = await Promise.all([
    listApiKeys(env.DB, id, { limit: LISTED, after: undefined }),
    listCredentials(env.DB, id, { limit: LISTED, after: undefined }),
    listJobs(env.DB, { workspaceId: id, limit: RECENT_JOBS }),
    ownerEmails(env.DB, [id]),
  ]);
  return { workspace, ownerEmail: emails.get(id) ?? null, keys: keys.slice(0, LISTED), credentials: credentials.slice(0, LISTED), jobs: jobs.slice(0, RECENT_JOBS) };
}

/** One job with its workspace and the credential it ran on (without its secret), as support reads a failure. */
export async function inspectJob(env: ActionsEnv, actor: Actor, id: string): Promise<{ job: JobRow; workspace: WorkspaceRow; ownerEmail: string | null; credential: CredentialRow | null }> {
  const job = await findJobById(env.DB, id);
  if (!job) throw new ApiError("DATA_JOB_NOT_FOUND");
  await mark(env, actor, "workspaces.read", { action: "job.view", targetKind: "job", targetId: id, reason: null });
  const [workspace, emails, credential] = await Promise.all([
    existingWorkspace(env, job.workspaceId),
    ownerEmails(env.DB, [job.workspaceId]),
    job.credentialId ? credentialRow(env.DB, job.credentialId) : null,
  ]);
  return { job, workspace, ownerEmail: emails.get(job.workspaceId) ?? null, credential };
}

/** Suspends or restores a workspace, effective for its very next request; a second suspension keeps the first one's time. */
export async function changeWorkspaceSuspension(env: ActionsEnv, actor: Actor, id: string, direction: "suspend" | "restore", reason: string): Promise<WorkspaceRow> {
  const before = await existingWorkspace(env, id);
  await mark(env, actor, "workspaces.suspend", { action: `workspace.${direction}`, targetKind: "workspace", targetId: id, reason });
  if (direction === "restore" || before.suspendedAt === null) await changeSuspension(env, id, direction === "suspend" ? Date.now() : null);
  return existingWorkspace(env, id);
}

export async function changeWorkspacePlan(env: ActionsEnv, actor: Actor, id: string, plan: Plan, reason: string): Promise<WorkspaceRow> {
  const before = await existingWorkspace(env, id);
  await mark(env, actor, "workspaces.plan", { action: "workspace.plan", targetKind: "workspace", targetId: id, reason, detail: { from: before.plan, to: plan } });
  await setPlan(env.DB, id, plan);
  return existingWorkspace(env, id);
}

/**
 * Grants a workspace usage credits (worker/domain/billing/credits.ts) on the operator's fresh authenticator code,
 * marked in the audit log first like every action.
 */
export async function grantUsageCredit(env: ActionsEnv, actor: Actor, id: string, credit: { amount: number; expiresAt: number; reason: string }, code: string | undefined): Promise<UsageCreditRow> {
  await existingWorkspace(env, id);
  await assertGrantable(env.DB, id, credit);
  await markConfirmed(env, actor, "workspaces.credit", code, { action: "workspace.credit", targetKind: "workspace", targetId: id, reason: credit.reason, detail: { amount: credit.amount, expiresAt: credit.expiresAt } });
  return grantCredit(env.DB, id, credit);
}

/** Refunds a paid invoice's card payment (worker/domain/billing/refunds.ts) on the operator's fresh authenticator code, marked in the audit log first. */
export async function refundPaidInvoice(env: ActionsEnv, actor: Actor, invoiceId: string, reason: string, code: string | undefined): Promise<InvoiceRow> {
  await markConfirmed(env, actor, "invoices.refund", code, { action: "invoice.refund", targetKind: "invoice", targetId: invoiceId, reason });
  return refundInvoice(env.DB, portOneGateway(env), invoiceId, reason);
}

/** A failed job's request again, as a new job of its workspace; the failed job stays as it was. */
export async function rerunFailedJob(env: ActionsEnv, actor: Actor, id: string, reason: string): Promise<{ failed: JobRow; job: JobRow }> {
  const failed = await findJobById(env.DB, id);
  if (!failed) throw new ApiError("DATA_JOB_NOT_FOUND");
  if (failed.status !== "FAILED") throw new ApiError("ACTION_NOT_SUPPORTED", { message: "실패(Failed)한 작업만 다시 실행할 수 있습니다." });
  await mark(env, actor, "jobs.rerun", { action: "job.rerun", targetKind: "job", targetId: id, reason });
  const request = { providerCode: failed.providerCode, schema: failed.schema, params: failed.params, ...(failed.credentialId ? { credentialId: failed.credentialId } : {}) };
  return { failed, job: await createJob(env, failed.workspaceId, request) };
}

/** An announced outage is a notice of days, not a standing closure: longer ones belong in the institution's calendar. */
const MAX_OUTAGE_MS = 7 * 24 * 3_600_000;

export async function announceProviderOutage(
  env: ActionsEnv,
  actor: Actor,
  provider: ProviderDefinition,
  outage: { startsAt: string; endsAt: string; note: string; reason: string },
): Promise<OutageRow> {
  const startsAt = Date.parse(outage.startsAt);
  const endsAt = Date.parse(outage.endsAt);
  if (!(endsAt > startsAt && endsAt > Date.now() && endsAt - startsAt <= MAX_OUTAGE_MS)) {
    throw new ApiError("DATE_RANGE_INVALID", {
      fieldErrors: [{ field: "body.endsAt", code: "DATE_RANGE_INVALID", message: "끝은 시작보다 뒤이고 아직 지나지 않았으며 시작부터 7일 안이어야 합니다." }],
    });
  }
  const { reason, ...detail } = outage;
  await mark(env, actor, "outages.manage", { action: "outage.announce", targetKind: "provider", targetId: provider.code, reason, detail });
  return announceOutage(env.DB, { providerCode: provider.code, startsAt, endsAt, note: outage.note, announcedBy: actor.operator.id });
}

export async function withdrawProviderOutage(env: ActionsEnv, actor: Actor, providerCode: string, id: string, reason: string): Promise<OutageRow> {
  await mark(env, actor, "outages.manage", { action: "outage.withdraw", targetKind: "outage", targetId: id, reason, detail: { providerCode } });
  const withdrawn = await withdrawOutage(env.DB, providerCode, id);
  if (!withdrawn) throw new ApiError("RESOURCE_NOT_FOUND", { message: "철회할 장애·점검 등록을 찾을 수 없습니다." });
  return withdrawn;
}

async function existingReport(env: ActionsEnv, id: string): Promise<ReportRow> {
  const report = await findReport(env.DB, id);
  if (!report) throw new ApiError("AGENT_BUG_REPORT_NOT_FOUND");
  return report;
}

/** What the report list shows at most, open ones first. */
export const REPORTS_SHOWN = 100;

/**
 * The latest failure reports: their details and addresses came from customers' sessions too, so the list is an audit
 * line (`report.list`, naming the reports shown) like a report's page, written before anything is shown.
 */
export async function listFailureReports(env: ActionsEnv, actor: Actor): Promise<ReportRow[]> {
  assertOperatorMay(actor.operator.role, "reports.read");
  const reports = await latestReports(env.DB, REPORTS_SHOWN);
  await mark(env, actor, "reports.read", { action: "report.list", targetKind: "report", targetId: "latest", reason: null, detail: { shown: reports.map((r) => r.id) } });
  return reports;
}

/** A failure report with its page (redacted when kept): looking at it is an audit line, as the page came from a customer's session. */
export async function readFailureReport(env: ActionsEnv, actor: Actor, id: string): Promise<{ report: ReportRow; page: { html: string | null; screenshot: string | null } | null }> {
  const report = await existingReport(env, id);
  await mark(env, actor, "reports.read", { action: "report.view", targetKind: "report", targetId: id, reason: null });
  return { report, page: await reportPage(env, report) };
}

/** Closes a report with the adapter change that fixed it (a commit or pull request). */
export async function closeFailureReport(env: ActionsEnv, actor: Actor, id: string, fixRef: string, reason: string): Promise<ReportRow> {
  await existingReport(env, id);
  await mark(env, actor, "reports.close", { action: "report.close", targetKind: "report", targetId: id, reason, detail: { fixRef } });
  const closed = await closeReport(env.DB, id, actor.operator.id, fixRef);
  if (!closed) throw new ApiError("AGENT_BUG_REPORT_NOT_FOUND", { message: "열려 있는 실패 보고서가 아닙니다. 이미 닫혔을 수 있습니다." });
  return closed;
}
