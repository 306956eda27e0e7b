import { findProvider, type ProviderDefinition } from "./providers";
import { findSchema, type SchemaDefinition } from "./schemas";
import { ApiError, fieldError } from "../../platform/errors/api-error";
import { toFieldErrors, validationError } from "../../platform/http/validation-hook";

export interface JobRequest {
  provider: ProviderDefinition;
  schema: SchemaDefinition;
  params: Record<string, unknown>;
}

const DAY_MS = 86_400_000;

export function inclusiveDays(start: string, end: string): number {
  return (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS + 1;
}

function checkDateRange(params: Record<string, unknown>, provider: ProviderDefinition): void {
  const start = params.dateRangeStart as string;
  const end = params.dateRangeEnd as string;
  if (start > end) {
    throw new ApiError("DATE_RANGE_INVALID", {
      fieldErrors: [fieldError("body.params.dateRangeEnd", "DATE_RANGE_INVALID", "종료일이 시작일보다 빠릅니다.")],
    });
  }
  if (inclusiveDays(start, end) > provider.maxRangeDays) {
    const message = `조회 기간이 최대 ${provider.maxRangeDays}일을 넘습니다. 기간을 나누어 요청해 주세요.`;
    throw new ApiError("DATE_RANGE_EXCEEDED", { message, fieldErrors: [fieldError("body.params", "DATE_RANGE_EXCEEDED", message)] });
  }
}

/**
 * Checks a create request against the catalogs, in the order a client fixes
 * things: provider, schema, the provider's support for it, then params.
 */
export function validateJobRequest(body: { providerCode: string; schema: string; params?: Record<string, unknown> }): JobRequest {
  const provider = findProvider(body.providerCode);
  if (!provider) throw new ApiError("INVALID_PROVIDER_CODE", { fieldErrors: [fieldError("body.providerCode", "INVALID_PROVIDER_CODE")] });
  const schema = findSchema(body.schema);
  if (!schema) throw new ApiError("SCHEMA_NOT_FOUND", { fieldErrors: [fieldError("body.schema", "SCHEMA_NOT_FOUND")] });
  if (!provider.schemas.includes(schema.id)) {
    throw new ApiError("ACTION_NOT_SUPPORTED", { fieldErrors: [fieldError("body.schema", "ACTION_NOT_SUPPORTED")] });
  }
  const raw = body.params ?? {};
  const parsed = schema.params.safeParse(raw);
  if (!parsed.success) throw validationError(toFieldErrors(parsed.error, raw, "body.params"));
  const params = parsed.data as Record<string, unknown>;
  if (schema.datedRange) checkDateRange(params, provider);
  return { provider, schema, params };
}
