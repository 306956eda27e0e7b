import { desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Database } from "../../platform/database/client";
import { database, statementOf } from "../../platform/database/client";
import { workspaces } from "./tables";
import { contains } from "../../platform/database/contains";
import type { Plan } from "./plans";

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
