import { findKeyById } from "./store";
import { isActiveConnection } from "../partners/connections";
import { findWorkspace } from "../workspaces/store";

/** Why the key that signed a link no longer stands behind it. */
export type KeyLapse = "KEY_REVOKED" | "CONNECTION_ENDED" | "WORKSPACE_SUSPENDED";

/**
 * Whether the key that made a link (a download link, a holder's manage link) still stands for `workspaceId`, the
 * workspace the link acts in: a link is a key's right handed on, so it ends with the key (revoked or deleted), with
 * the partner's connection to that business, and while an operator suspends the key's workspace or the business's
 * (or either is gone).
 * Null while it stands. A key's expiry is not read here: its links are made to expire with it.
 */
export async function keyLapse(d1: D1Database, apiKeyId: string, workspaceId: string): Promise<KeyLapse | null> {
  const key = await findKeyById(d1, apiKeyId);
  if (!key || key.revokedAt !== null) return "KEY_REVOKED";
  // A partner's key acts in a business's workspace through a connection: once that ends, so do the partner's links there.
  if (key.workspaceId !== workspaceId && !(await isActiveConnection(d1, key.workspaceId, workspaceId))) return "CONNECTION_ENDED";
  const workspaces = await Promise.all([...new Set([key.workspaceId, workspaceId])].map((id) => findWorkspace(d1, id)));
  return workspaces.some((workspace) => !workspace || workspace.suspendedAt !== null) ? "WORKSPACE_SUSPENDED" : null;
}
