import type { Context } from "hono";
import { type ApiEnv, principalOf } from "../context";
import { workspaceJob } from "../../domain/jobs/workspace-job";
import type { JobRow } from "../../domain/jobs/store";

/** A job of the caller's workspace. */
export const loadJob = (c: Context<ApiEnv>, id: string): Promise<JobRow> => workspaceJob(c.env, principalOf(c).workspaceId, id);
