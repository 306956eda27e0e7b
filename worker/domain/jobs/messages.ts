/** What travels on the TASKS queue. Small by design: the state lives in D1. */
export type JobMessage = { type: "plan"; jobId: string; workspaceId: string } | { type: "unit"; jobId: string; workspaceId: string; unitIndex: number };

/** A credential's login check (domain/pipeline/probe.ts): one login at `providerCode`, settled under `checkId`. */
export type ProbeMessage = { type: "probe"; credentialId: string; workspaceId: string; providerCode: string; checkId: string };

export type PipelineMessage = JobMessage | ProbeMessage;

type JobRef = { id: string; workspaceId: string };

export const planMessage = (job: JobRef): JobMessage => ({ type: "plan", jobId: job.id, workspaceId: job.workspaceId });

export const unitMessage = (job: JobRef, unitIndex: number): JobMessage => ({ type: "unit", jobId: job.id, workspaceId: job.workspaceId, unitIndex });
