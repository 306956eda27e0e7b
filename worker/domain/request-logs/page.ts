import type { CursorPosition } from "../../platform/database/cursor";
import { paged } from "../../platform/http/paging";
import type { RequestLogFilter } from "./inputs";
import { listRequestLogs } from "./store";
import type { RequestLogRow } from "./tables";

/**
 * One page of a workspace's log as the API and the console both page it: the cursor bound to the workspace and the
 * filters it was issued for, so it cannot be replayed under others.
 */
export function requestLogPage<V>(
  d1: D1Database,
  cursorSecret: string,
  workspaceId: string,
  filter: RequestLogFilter,
  query: { cursor?: string; limit: number },
  view: (row: RequestLogRow) => V,
): Promise<{ items: V[]; nextCursor: string | null }> {
  const scope = JSON.stringify(["request-logs", workspaceId, filter]);
  return paged(cursorSecret, scope, query, (after: CursorPosition | undefined) => listRequestLogs(d1, workspaceId, filter, { limit: query.limit, after }), view);
}
