import type { CREDENTIAL_STATUSES } from "./tables";

/** A credential and the rows of the same login or certificate it superseded (`ids`, itself first), with its status. */
export interface CredentialLineage {
  status: (typeof CREDENTIAL_STATUSES)[number];
  ids: string[];
}

/**
 * What one login (or certificate) of a workspace has been, back from `id`: each registration of it again superseded
 * the row before (`superseded_by`), so its jobs and their results sit under several ids, and what is done to the
 * login's data (deleting its results, docs/credentials.md) is done to all of them. Only back from `id`: a row that
 * superseded it is the live login, deleted through its own id. Any status, a deleted row's links are kept. Null when
 * the workspace has no credential `id`.
 */
export async function credentialLineage(d1: D1Database, workspaceId: string, id: string): Promise<CredentialLineage | null> {
  const { results } = await d1
    // Raw: a recursive common table expression, which drizzle's builder cannot express; a chain is one D1 round trip.
    .prepare(
      `WITH RECURSIVE line(id, provider_code, status, depth) AS (
         SELECT id, provider_code, status, 0 FROM credentials WHERE id = ? AND workspace_id = ?
         UNION
         SELECT c.id, c.provider_code, c.status, line.depth + 1 FROM credentials c JOIN line
           ON c.workspace_id = ? AND c.provider_code = line.provider_code AND c.superseded_by = line.id
       )
       SELECT id, status FROM line ORDER BY depth`,
    )
    .bind(id, workspaceId, workspaceId)
    .all<{ id: string; status: CredentialLineage["status"] }>();
  const [head] = results;
  return head ? { status: head.status, ids: results.map((r) => r.id) } : null;
}
