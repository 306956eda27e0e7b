import { type AuthMethod, type ProviderDefinition, unitWindowDays } from "../catalog/providers";
import type { SchemaDefinition } from "../catalog/schemas";
import { inclusiveDays } from "../catalog/job-request";

const BASE_SECONDS = 300;
const PER_SEGMENT_SECONDS = 60;
/** A login its holder approves on their phone may wait the app's whole window (5 minutes, facts K5, K9, K11) and a little. */
const HOLDER_APPROVAL_SECONDS = 330;

/**
 * The wait budget grows with the number of date segments the job will be cut
 * into (a schema's own unit length where it has one), since each segment is at
 * least one page load per target, and more for a provider that paces its requests
 * (`segmentSeconds`, a schema's own where its requests grow with its records); a credential whose
 * login waits for its holder's phone adds the approval window.
 */
export function waitBudgetSeconds(provider: ProviderDefinition, schema: SchemaDefinition, params: Record<string, unknown>, authMethod?: AuthMethod): number {
  const approval = authMethod === "SIMPLE_AUTH" ? HOLDER_APPROVAL_SECONDS : 0;
  if (!schema.datedRange) return BASE_SECONDS + approval;
  const days = inclusiveDays(params.dateRangeStart as string, params.dateRangeEnd as string);
  const segment = provider.segmentSecondsBySchema?.[schema.id] ?? provider.segmentSeconds ?? PER_SEGMENT_SECONDS;
  return BASE_SECONDS + approval + segment * Math.ceil(days / unitWindowDays(provider, schema.id));
}
