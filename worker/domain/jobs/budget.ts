import type { ProviderDefinition } from "../catalog/providers";
import type { SchemaDefinition } from "../catalog/schemas";
import { inclusiveDays } from "../catalog/job-request";

const BASE_SECONDS = 300;
const PER_SEGMENT_SECONDS = 60;

/**
 * The wait budget grows with the number of date segments the job will be cut
 * into, since each segment is at least one page load per target, and more for
 * a provider that paces its requests (`segmentSeconds`).
 */
export function waitBudgetSeconds(provider: ProviderDefinition, schema: SchemaDefinition, params: Record<string, unknown>): number {
  if (!schema.datedRange) return BASE_SECONDS;
  const days = inclusiveDays(params.dateRangeStart as string, params.dateRangeEnd as string);
  return BASE_SECONDS + (provider.segmentSeconds ?? PER_SEGMENT_SECONDS) * Math.ceil(days / provider.pageWindowDays);
}
