import { ApiError } from "../../platform/errors/api-error";
import { readJob } from "./board";
import type { JobRow } from "./store";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A job of the workspace; anything else, malformed ids included, is simply not found. */
export async function workspaceJob(env: Env, workspaceId: string, id: string): Promise<JobRow> {
  const row = UUID.test(id) ? await readJob(env, workspaceId, id.toLowerCase()) : null;
  if (!row) throw new ApiError("DATA_JOB_NOT_FOUND");
  return row;
}
