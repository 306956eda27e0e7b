import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { allSchemas } from "../../domain/catalog/schemas";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { MAX } from "../../platform/http/bounds";
import { SchemaSummarySchema, schemaSummary } from "./views";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/schemas",
  operationId: "listSchemas",
  tags: ["Catalog"],
  summary: "스키마 목록",
  responses: {
    200: { description: "사용 가능한 스키마", content: { "application/json": { schema: z.object({ items: z.array(SchemaSummarySchema).max(MAX.items) }) } } },
    ...errorResponses(),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = (c) => c.json({ items: allSchemas().map(schemaSummary) }, 200);
