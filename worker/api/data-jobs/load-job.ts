import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { workspaceJob } from "../../domain/jobs/workspace-job";
import type { JobRow } from "../../domain/jobs/store";
import { principalOf } from "../principal";

/** A job of the caller's workspace. */
export const loadJob = (c: Context<AppEnv>, id: string): Promise<JobRow> => workspaceJob(c.env, principalOf(c).workspaceId, id);
