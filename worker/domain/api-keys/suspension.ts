import { liveKeyHashes } from "./store";
import { keyGate } from "./request-gate";
import { keyLeases } from "./key-leases";
import { setSuspended } from "../workspaces/store";

/**
 * Suspends (`at`) or restores (null) a workspace, then has each of its keys' gates read it again, so the very next
 * request sees the change instead of a minute-old cache: through this isolate at once, through others once their
 * leases end (LEASE_MS, domain/api-keys/lease.ts). False when there is no such workspace.
 */
export async function changeSuspension(env: Pick<Env, "DB" | "REQUEST_GATES">, workspaceId: string, at: number | null): Promise<boolean> {
  if (!(await setSuspended(env.DB, workspaceId, at))) return false;
  await Promise.all(
    (await liveKeyHashes(env.DB, workspaceId)).map(async (hash) => {
      await keyGate(env, hash).forget();
      keyLeases.forget(hash);
    }),
  );
  return true;
}
