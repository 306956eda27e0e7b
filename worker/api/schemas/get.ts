import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { findSchema } from "../../domain/catalog/schemas";
import type { ApiEnv } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { errorResponses } from "../../platform/http/error-responses";
import { code } from "../../platform/http/bounds";
import { SchemaDetailSchema, schemaDetail } from "./views";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/schemas/{schema}",
  operationId: "getSchema",
  tags: ["Catalog"],
  summary: "스키마 상세",
  description: "요청 필드(params)와 레코드 필드의 JSON Schema",
  request: { params: z.object({ schema: code().meta({ param: { name: "schema", in: "path" }, example: "bank.transactions.cb.v1" }) }) },
  responses: {
    200: { description: "스키마 정의", content: { "application/json": { schema: SchemaDetailSchema } } },
    ...errorResponses("SCHEMA_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = (c) => {
  const definition = findSchema(c.req.valid("param").schema);
  if (!definition) throw new ApiError("SCHEMA_NOT_FOUND");
  return c.json(schemaDetail(definition), 200);
};
