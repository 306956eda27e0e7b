import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { database } from "../db/client";
import { workspaces } from "../db/tables";

export type WorkspaceRow = typeof workspaces.$inferSelect;

/** What other modules read of a workspace: its business, its job cap, whether it is a partner. */
export async function findWorkspace(d1: D1Database, workspaceId: string): Promise<Pick<WorkspaceRow, "businessNumber" | "monthlyJobCap" | "isPartner"> | null> {
  const row = await database(d1)
    .select({ businessNumber: workspaces.businessNumber, monthlyJobCap: workspaces.monthlyJobCap, isPartner: workspaces.isPartner })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  return row ?? null;
}

export async function workspaceBusinessNumber(d1: D1Database, workspaceId: string): Promise<string | null> {
  return (await findWorkspace(d1, workspaceId))?.businessNumber ?? null;
}

/** A workspace of its own for a partner's connection to one business, to batch with the connection row. */
export function insertConnectionWorkspace(db: Database, input: { id: string; businessNumber: string; createdAt: number }) {
  return db.insert(workspaces).values({ id: input.id, name: `connection ${input.businessNumber}`, businessNumber: input.businessNumber, createdAt: input.createdAt });
}
