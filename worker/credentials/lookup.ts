import { and, eq } from "drizzle-orm";
import { database } from "../db/client";
import { credentials } from "../db/schema";

/** A workspace's live credential for a provider, which its jobs use implicitly. */
export async function findActiveCredential(d1: D1Database, workspaceId: string, providerCode: string) {
  const row = await database(d1)
    .select()
    .from(credentials)
    .where(and(eq(credentials.workspaceId, workspaceId), eq(credentials.providerCode, providerCode), eq(credentials.status, "ACTIVE")))
    .get();
  return row ?? null;
}
