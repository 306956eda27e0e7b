import { and, asc, desc, eq, isNotNull, sql } from "drizzle-orm";
import { type ListPage, pastPosition } from "../../platform/database/cursor";
import { database, statementOf } from "../../platform/database/client";
import { credentials } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { rewrapCredential } from "../vault/envelope";
import { pastKey, type RewrapTally, rewrapRows, sealedBefore } from "../vault/rewrap-rows";

export type CredentialRow = typeof credentials.$inferSelect;

/**
 * Whether a job still runs on a credential (jobs/store.ts hasActiveJob): the job flow sits above credentials, so the
 * caller above both passes it.
 */
export type ActiveJobCheck = (d1: D1Database, credentialIds: string | readonly string[]) => Promise<boolean>;

/** An SQL condition of a caller's, with its bindings, under which a write takes effect. */
export interface WriteCondition {
  condition: string;
  binds: unknown[];
}

export const ALWAYS: WriteCondition = { condition: "1", binds: [] };

/** Ends the default of a provider's live credential, to batch before another becomes it. */
export function clearDefaultStatement(d1: D1Database, workspaceId: string, providerCode: string, onlyIf: WriteCondition = ALWAYS): D1PreparedStatement {
  return d1
    // Raw: the caller hands its write condition over as SQL text (`onlyIf`), which drizzle's builder cannot take.
    .prepare(`UPDATE credentials SET is_default = 0 WHERE workspace_id = ? AND provider_code = ? AND status = 'ACTIVE' AND is_default = 1 AND ${onlyIf.condition}`)
    .bind(workspaceId, providerCode, ...onlyIf.binds);
}

/** The workspace's credentials (deleted ones too), newest first, of one provider code if named: all of them, or one page (platform/http/paging.ts). */
export function listCredentials(d1: D1Database, workspaceId: string, page?: ListPage, providerCode?: string): Promise<CredentialRow[]> {
  const query = database(d1)
    .select()
    .from(credentials)
    .where(
      and(
        eq(credentials.workspaceId, workspaceId),
        providerCode === undefined ? undefined : eq(credentials.providerCode, providerCode),
        pastPosition(credentials.createdAt, credentials.id, page?.after),
      ),
    )
    .orderBy(desc(credentials.createdAt), desc(credentials.id));
  return page ? query.limit(page.limit + 1).all() : query.all();
}

/** Whether a workspace holds a live certificate issued for a business number: the proof that it is that business. */
export async function holdsCertificateOf(d1: D1Database, workspaceId: string, businessNumber: string): Promise<boolean> {
  const held = and(eq(credentials.workspaceId, workspaceId), eq(credentials.businessNumber, businessNumber), eq(credentials.status, "ACTIVE"), isNotNull(credentials.certificate));
  const row = await database(d1).select({ one: sql`1` }).from(credentials).where(held).limit(1).get();
  return Boolean(row);
}

/** Renames a live credential and makes it its provider's default or not; the previous default, if any, stops being it. */
export async function updateCredential(d1: D1Database, workspaceId: string, id: string, change: { label?: string; isDefault?: boolean }): Promise<CredentialRow> {
  const row = await findCredential(d1, workspaceId, id);
  const statements: D1PreparedStatement[] = [];
  if (change.isDefault === true && !row.isDefault) statements.push(clearDefaultStatement(d1, workspaceId, row.providerCode));
  const isDefault = change.isDefault ?? row.isDefault;
  const label = change.label ?? row.label;
  statements.push(statementOf(d1, database(d1).update(credentials).set({ label, isDefault }).where(and(eq(credentials.id, id), eq(credentials.status, "ACTIVE")))));
  await d1.batch(statements);
  return { ...row, label, isDefault };
}

export async function findCredential(d1: D1Database, workspaceId: string, id: string): Promise<CredentialRow> {
  const row = await database(d1).select().from(credentials).where(and(eq(credentials.id, id), eq(credentials.workspaceId, workspaceId))).get();
  if (!row || row.status === "DELETED") throw new ApiError("CREDENTIAL_NOT_FOUND");
  if (row.status === "SUPERSEDED") throw new ApiError("CREDENTIAL_SUPERSEDED");
  return row;
}

/**
 * Moves up to `limit` sealed secrets past `after` still wrapped by an older master key than the keyring's newest onto the newest
 * (domain/key-rotation/rewrap.ts). Each row is written only if its blob is still the one read, so a credential erased or
 * replaced meanwhile keeps what it has. A blob the keyring cannot open is left as it is and counted apart.
 * Returns how many rows were looked at and how many could not be opened.
 */
export function rewrapCredentials(d1: D1Database, masterSecret: string, after: string | null, limit: number): Promise<RewrapTally> {
  const db = database(d1);
  const columns = { id: credentials.id, workspaceId: credentials.workspaceId, providerCode: credentials.providerCode, sealed: credentials.sealed };
  return rewrapRows(masterSecret, after, limit, {
    stale: async (latest, after, limit) => {
      const rows = await db
        .select(columns)
        .from(credentials)
        .where(and(pastKey(credentials.id, after), isNotNull(credentials.sealed), sealedBefore(credentials.sealed, latest)))
        .orderBy(asc(credentials.id))
        .limit(limit)
        .all();
      return rows as { id: string; workspaceId: string; providerCode: string; sealed: string }[];
    },
    rewrap: (row) => rewrapCredential(masterSecret, { credentialId: row.id, workspaceId: row.workspaceId, providerCode: row.providerCode }, row.sealed),
    write: (row, sealed) => db.update(credentials).set({ sealed }).where(and(eq(credentials.id, row.id), eq(credentials.sealed, row.sealed))),
  });
}

/** A credential in whatever state, for the operator console, which reads the job that ran on it (the row holds its secret sealed: views leave it out). */
export async function credentialRow(d1: D1Database, id: string): Promise<CredentialRow | null> {
  return (await database(d1).select().from(credentials).where(eq(credentials.id, id)).get()) ?? null;
}

/** Which workspace a credential is of, for the operator console's search: its id, nothing of its secret. */
export async function credentialWorkspace(d1: D1Database, id: string): Promise<string | null> {
  return (await database(d1).select({ workspaceId: credentials.workspaceId }).from(credentials).where(eq(credentials.id, id)).get())?.workspaceId ?? null;
}
