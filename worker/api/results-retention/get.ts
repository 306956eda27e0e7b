import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { resultsRetention } from "../../domain/workspaces/results-retention";
import { ResultsRetentionSchema } from "./shapes";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/results-retention",
  operationId: "getResultsRetention",
  tags: ["Data jobs"],
  summary: "결과 보관 기간",
  description:
    "끝난 작업의 결과를 며칠 보관하는지와 플랜의 기본값, 최대값입니다. 파트너가 대신 일하는 사업자의 작업에는 파트너의 보관 기간이 적용됩니다 (docs/retention.md).",
  responses: {
    200: { description: "보관 기간", content: { "application/json": { schema: ResultsRetentionSchema } } },
    ...errorResponses(),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => c.json(await resultsRetention(c.env.DB, principalOf(c).workspaceId), 200);
