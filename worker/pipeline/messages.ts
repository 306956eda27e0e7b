/** What travels on the TASKS queue. Small by design: the state lives in D1. */
export type PipelineMessage =
  | { type: "plan"; jobId: string; workspaceId: string }
  | { type: "unit"; jobId: string; workspaceId: string; unitIndex: number };
