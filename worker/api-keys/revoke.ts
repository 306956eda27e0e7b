import type { Bindings } from "../env";
import { keyGate } from "../durable-objects/request-gate";
import { revokeApiKey } from "./store";

/**
 * Revokes a workspace's key in D1 and then at its request gate, which
 * refuses it at once instead of after its cache expires. The gate is told
 * again for a key already revoked, in case an earlier revocation stopped
 * between the two.
 */
export async function revokeKey(env: Pick<Bindings, "DB" | "REQUEST_GATES">, workspaceId: string, id: string): Promise<"REVOKED" | "ALREADY_REVOKED" | "NOT_FOUND"> {
  const revoked = await revokeApiKey(env.DB, workspaceId, id);
  if (revoked.outcome === "NOT_FOUND") return "NOT_FOUND";
  await keyGate(env, revoked.hash).revoke();
  return revoked.outcome;
}
