/** What travels on the TASKS queue. Small by design: the state lives in D1. */
export type PipelineMessage =
  | { type: "plan"; jobId: string; workspaceId: string }
  | { type: "unit"; jobId: string; workspaceId: string; unitIndex: number };

type JobRef = { id: string; workspaceId: string };

export const planMessage = (job: JobRef): PipelineMessage => ({ type: "plan", jobId: job.id, workspaceId: job.workspaceId });

export const unitMessage = (job: JobRef, unitIndex: number): PipelineMessage => ({ type: "unit", jobId: job.id, workspaceId: job.workspaceId, unitIndex });
