import { eq } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { workspaces } from "./tables";

/** Who hears of a workspace's events: itself and, for a connection workspace, the partner acting for it (its billing workspace). */
export function recipientsOf(workspaceId: string, billingWorkspaceId: string | null | undefined): string[] {
  return billingWorkspaceId && billingWorkspaceId !== workspaceId ? [workspaceId, billingWorkspaceId] : [workspaceId];
}

/** `recipientsOf` as SQL, for a statement that has only the workspace's id (bound at `workspace`): a list for `IN (...)`. */
export const recipientsSql = (workspace: string) => `${workspace}, (SELECT coalesce(billing_workspace_id, id) FROM workspaces WHERE id = ${workspace})`;

/** `recipientsOf`, for a caller without the workspace's billing workspace at hand. */
export async function eventRecipients(d1: D1Database, workspaceId: string): Promise<string[]> {
  const row = await database(d1).select({ partner: workspaces.billingWorkspaceId }).from(workspaces).where(eq(workspaces.id, workspaceId)).get();
  return recipientsOf(workspaceId, row?.partner);
}
