import { ApiError } from "../../platform/errors/api-error";
import { findRequestLog } from "./store";
import type { RequestLogRow } from "./tables";

/** One request of the workspace's log, or 404: another workspace's, a purged and a not yet written request alike. */
export async function workspaceRequestLog(d1: D1Database, workspaceId: string, requestId: string): Promise<RequestLogRow> {
  const row = await findRequestLog(d1, workspaceId, requestId);
  if (row) return row;
  throw new ApiError("RESOURCE_NOT_FOUND", { message: "요청 기록을 찾을 수 없습니다. 요청 ID를 확인해 주세요. 기록은 30일 보관되며, 방금 보낸 요청은 몇 초 뒤에 보입니다." });
}
