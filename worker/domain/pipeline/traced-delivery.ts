import type { PipelineMessage } from "../jobs/messages";
import { withSpan } from "../../platform/observability/telemetry";
import { jobTraceId, newTraceId } from "../../platform/observability/trace-context";
import { executeMessage } from "./executor";
import type { Outcome, PipelineDeps } from "./ports";

/**
 * One queue delivery as a span of its job's trace (the job's id is its trace id, platform/observability/trace-context.ts),
 * every log line inside it carrying the job id: however many messages and invocations a job takes, its trace
 * follows it from planning through each unit to the scraper's pages.
 */
export function tracedDelivery(deps: PipelineDeps, env: Pick<Env, "OTEL_EXPORTER_OTLP_ENDPOINT">, message: PipelineMessage): Promise<Outcome> {
  const jobId = message.type === "probe" ? undefined : message.jobId;
  const name = message.type === "unit" ? `job unit ${message.unitIndex}` : message.type === "plan" ? "job plan" : "credential probe";
  return withSpan(
    name,
    {
      parent: { traceId: jobId ? jobTraceId(jobId) : newTraceId(), spanId: "", sampled: true },
      kind: "consumer",
      attributes: { "messaging.system": "cloudflare-queues", ...(jobId ? { "job.id": jobId } : { "credential.id": (message as { credentialId: string }).credentialId }) },
      fields: { jobId },
      exporting: { env },
    },
    async (span) => {
      const outcome = await executeMessage(deps, message);
      span.setAttribute("job.outcome", outcome.kind);
      return outcome;
    },
  );
}
