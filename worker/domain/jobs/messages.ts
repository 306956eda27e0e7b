import type { ProbeMessage } from "../credentials/login-checks";

/** What travels on the TASKS queue. Small by design: the state lives in D1. */
export type JobMessage = { type: "plan"; jobId: string; workspaceId: string } | { type: "unit"; jobId: string; workspaceId: string; unitIndex: number };

export type PipelineMessage = JobMessage | ProbeMessage;

/** The TASKS queue as its senders name it: the generated bindings type it a queue of anything (worker-configuration.d.ts). */
export type PipelineQueue = { TASKS: Queue<PipelineMessage> };

type JobRef = { id: string; workspaceId: string };

export const planMessage = (job: JobRef): JobMessage => ({ type: "plan", jobId: job.id, workspaceId: job.workspaceId });

export const unitMessage = (job: JobRef, unitIndex: number): JobMessage => ({ type: "unit", jobId: job.id, workspaceId: job.workspaceId, unitIndex });
