import { keyGate } from "./request-gate";
import { keyLeases } from "./key-leases";
import { revokeApiKey, revokeKeysIssuedTo, revokeManagingKeysIssuedBy } from "./store";

/**
 * Revokes a workspace's key in D1 and then at its request gate, which
 * refuses it at once instead of after its cache expires. The gate is told
 * again for a key already revoked, in case an earlier revocation stopped
 * between the two. This isolate drops its lease of the key at once; other
 * isolates spend theirs for at most LEASE_MS (domain/api-keys/lease.ts).
 */
export async function revokeKey(env: Pick<Env, "DB" | "REQUEST_GATES">, workspaceId: string, id: string): Promise<"REVOKED" | "ALREADY_REVOKED" | "NOT_FOUND"> {
  const revoked = await revokeApiKey(env.DB, workspaceId, id);
  if (revoked.outcome === "NOT_FOUND") return "NOT_FOUND";
  await revokeAtGate(env, revoked.hash);
  return revoked.outcome;
}

/** Revokes the keys a person's command-line sign-ins got in a workspace, in D1 and at each key's gate: they left it. */
export async function revokeUserKeys(env: Pick<Env, "DB" | "REQUEST_GATES">, workspaceId: string, userId: string): Promise<void> {
  for (const hash of await revokeKeysIssuedTo(env.DB, workspaceId, userId)) await revokeAtGate(env, hash);
}

/**
 * Revokes the managing keys (`canManageKeys`, the right that makes a key act as an owner, domain/workspaces/roles.ts)
 * a person made in a workspace, in D1 and at each key's gate: they left it or stopped owning it. Their data keys stay:
 * they are the workspace's integration keys and carry no more than a member's rights.
 */
export async function revokeIssuerManagingKeys(env: Pick<Env, "DB" | "REQUEST_GATES">, workspaceId: string, userId: string): Promise<void> {
  for (const hash of await revokeManagingKeysIssuedBy(env.DB, workspaceId, userId)) await revokeAtGate(env, hash);
}

async function revokeAtGate(env: Pick<Env, "REQUEST_GATES">, hash: string): Promise<void> {
  await keyGate(env, hash).revoke();
  // After the gate: a lease asked for meanwhile is refused there.
  keyLeases.forget(hash);
}
