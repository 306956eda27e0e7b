import { z } from "@hono/zod-openapi";
import { allProviders } from "../../domain/catalog/providers";
import type { SchemaDefinition } from "../../domain/catalog/schemas";
import { code, MAX } from "../../platform/http/bounds";

export const SchemaSummarySchema = z
  .object({ id: code(), title: z.string().max(MAX.name), providerCodes: z.array(code()).max(MAX.items) })
  .openapi("SchemaSummary");

export const SchemaDetailSchema = SchemaSummarySchema.extend({
  params: z.record(z.string(), z.unknown()).meta({ description: "요청 필드 정의 (JSON Schema)" }),
  record: z.record(z.string(), z.unknown()).meta({ description: "레코드 필드 정의 (JSON Schema). title은 CSV 머리글로 쓰이는 한국어 표시 이름" }),
}).openapi("SchemaDetail");

export function schemaSummary(definition: SchemaDefinition) {
  const providerCodes = allProviders().filter((p) => p.schemas.includes(definition.id)).map((p) => p.code);
  return { id: definition.id, title: definition.title, providerCodes };
}

/** JSON Schema generated from the same zod definitions that validate requests and records. */
export function schemaDetail(definition: SchemaDefinition) {
  return {
    ...schemaSummary(definition),
    params: z.toJSONSchema(definition.params, { io: "input" }) as Record<string, unknown>,
    record: z.toJSONSchema(definition.record) as Record<string, unknown>,
  };
}
