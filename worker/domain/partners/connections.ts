import { and, desc, eq } from "drizzle-orm";
import { type ListPage, pastPosition } from "../../platform/database/cursor";
import { database } from "../../platform/database/client";
import { connections } from "./tables";
import { insertConnectionWorkspace, partnerNameOf, partnerNames } from "../workspaces/store";
import { ApiError, fieldError } from "../../platform/errors/api-error";

export type ConnectionRow = typeof connections.$inferSelect;

/** The workspace a partner acts in for a business: its active connection's, or why there is none. */
export async function connectionFor(d1: D1Database, partnerWorkspaceId: string, businessNumber: string): Promise<ConnectionRow> {
  const rows = await database(d1)
    .select()
    .from(connections)
    .where(and(eq(connections.partnerWorkspaceId, partnerWorkspaceId), eq(connections.businessNumber, businessNumber)))
    .orderBy(desc(connections.createdAt))
    .all();
  const active = rows.find((r) => r.status === "ACTIVE");
  if (active) return active;
  throw new ApiError(rows.length ? "CONNECTION_REVOKED" : "CONNECTION_NOT_FOUND");
}

/** One of the partner's connections by id, while it is active: CONNECTION_NOT_FOUND (not the partner's either) or CONNECTION_REVOKED. */
export async function activeConnectionById(d1: D1Database, partnerWorkspaceId: string, id: string): Promise<ConnectionRow> {
  const row = await database(d1).select().from(connections).where(and(eq(connections.id, id), eq(connections.partnerWorkspaceId, partnerWorkspaceId))).get();
  if (!row) throw new ApiError("CONNECTION_NOT_FOUND", { fieldErrors: [fieldError("body.connectionId", "CONNECTION_NOT_FOUND")] });
  if (row.status !== "ACTIVE") throw new ApiError("CONNECTION_REVOKED", { fieldErrors: [fieldError("body.connectionId", "CONNECTION_REVOKED")] });
  return row;
}

/** Whether a partner still acts for the business whose workspace this is: a revoked connection ends what the partner made there. */
export async function isActiveConnection(d1: D1Database, partnerWorkspaceId: string, workspaceId: string): Promise<boolean> {
  const row = await database(d1)
    .select({ id: connections.id })
    .from(connections)
    .where(and(eq(connections.partnerWorkspaceId, partnerWorkspaceId), eq(connections.workspaceId, workspaceId), eq(connections.status, "ACTIVE")))
    .get();
  return row !== undefined;
}

/** Connects a partner to a business; an already active connection is returned as it is. */
export async function connect(d1: D1Database, partnerWorkspaceId: string, businessNumber: string): Promise<{ row: ConnectionRow; created: boolean }> {
  const existing = await connectionFor(d1, partnerWorkspaceId, businessNumber).catch(() => null);
  if (existing) return { row: existing, created: false };
  const now = Date.now();
  const row: ConnectionRow = {
    id: crypto.randomUUID(),
    partnerWorkspaceId,
    businessNumber,
    workspaceId: crypto.randomUUID(),
    status: "ACTIVE",
    createdAt: now,
    revokedAt: null,
  };
  const db = database(d1);
  try {
    await db.batch([
      insertConnectionWorkspace(db, { id: row.workspaceId, businessNumber, partnerWorkspaceId, createdAt: now }),
      db.insert(connections).values(row),
    ]);
  } catch (err) {
    // A concurrent connect won the one-active-connection index: answer with its connection.
    const winner = await connectionFor(d1, partnerWorkspaceId, businessNumber).catch(() => null);
    if (winner) return { row: winner, created: false };
    throw err;
  }
  return { row, created: true };
}

/** The partner's connections (to one business, if named), newest first, one page at a time (platform/http/paging.ts). */
export function listConnections(d1: D1Database, partnerWorkspaceId: string, page: ListPage, businessNumber?: string): Promise<ConnectionRow[]> {
  return database(d1)
    .select()
    .from(connections)
    .where(
      and(
        eq(connections.partnerWorkspaceId, partnerWorkspaceId),
        businessNumber === undefined ? undefined : eq(connections.businessNumber, businessNumber),
        pastPosition(connections.createdAt, connections.id, page.after),
      ),
    )
    .orderBy(desc(connections.createdAt), desc(connections.id))
    .limit(page.limit + 1)
    .all();
}

/** The partner's connection `id` to revoke, or why it cannot be: not the partner's, or revoked already. */
export async function connectionToRevoke(d1: D1Database, partnerWorkspaceId: string, id: string): Promise<ConnectionRow> {
  const row = await database(d1).select().from(connections).where(and(eq(connections.id, id), eq(connections.partnerWorkspaceId, partnerWorkspaceId))).get();
  if (!row) throw new ApiError("CONNECTION_NOT_FOUND");
  if (row.status === "REVOKED") throw new ApiError("CONNECTION_REVOKED");
  return row;
}

/** The write that revokes connection `id`, for the caller's transaction with what the business left in motion. */
export const revokeStatement = (d1: D1Database, id: string, now: number) => database(d1).update(connections).set({ status: "REVOKED", revokedAt: now }).where(eq(connections.id, id));

/** A partner acting for a business now, as the business sees it. */
export interface ActingPartner {
  id: string;
  name: string | null;
  connectionId: string;
  connectedAt: number;
}

/** The business's active connections, with their partners' public names (from the workspaces' owner). */
async function withPartnerNames(d1: D1Database, rows: ConnectionRow[]): Promise<ActingPartner[]> {
  const names = await partnerNames(d1, rows.map((r) => r.partnerWorkspaceId));
  return rows.map((r) => ({ id: r.partnerWorkspaceId, name: names.get(r.partnerWorkspaceId) ?? null, connectionId: r.id, connectedAt: r.createdAt }));
}

const activeToBusiness = (businessNumber: string) => and(eq(connections.businessNumber, businessNumber), eq(connections.status, "ACTIVE"));

/** The partners acting for a business (an active connection to its number each), newest first. */
export async function partnersActingFor(d1: D1Database, businessNumber: string): Promise<ActingPartner[]> {
  const rows = await database(d1).select().from(connections).where(activeToBusiness(businessNumber)).orderBy(desc(connections.createdAt)).all();
  return withPartnerNames(d1, rows);
}

/** One partner acting for a business, or 404 PARTNER_NOT_FOUND (no such partner, or none acting for this business). */
export async function partnerActingFor(d1: D1Database, businessNumber: string, partnerId: string): Promise<ActingPartner> {
  const row = await database(d1).select().from(connections).where(and(activeToBusiness(businessNumber), eq(connections.partnerWorkspaceId, partnerId))).get();
  if (!row) throw new ApiError("PARTNER_NOT_FOUND", { message: "이 사업자를 대신해 일하는 파트너 가운데 그런 파트너가 없습니다." });
  return (await withPartnerNames(d1, [row]))[0]!;
}

/** The public name of the partner a connection workspace acts for, shown on its registration page; null when none. */
export async function requestingPartnerName(d1: D1Database, workspaceId: string): Promise<string | null> {
  return (await requestingPartner(d1, workspaceId))?.name ?? null;
}

/** The partner acting for a connection workspace (its id, and its name if it named itself), or null for any other workspace. */
export async function requestingPartner(d1: D1Database, workspaceId: string): Promise<{ id: string; name: string | null } | null> {
  const row = await database(d1)
    .select({ partner: connections.partnerWorkspaceId })
    .from(connections)
    .where(and(eq(connections.workspaceId, workspaceId), eq(connections.status, "ACTIVE")))
    .get();
  return row ? { id: row.partner, name: await partnerNameOf(d1, row.partner) } : null;
}

/** A connection by id, whichever partner's, for the operator console's search. */
export async function connectionById(d1: D1Database, id: string): Promise<ConnectionRow | null> {
  return (await database(d1).select().from(connections).where(eq(connections.id, id)).get()) ?? null;
}
