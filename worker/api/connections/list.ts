import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { BUSINESS_NUMBER_INPUT_MAX, parseBusinessNumber } from "../../domain/partners/business-number";
import type { ApiEnv } from "../context";
import { listConnections } from "../../domain/partners/connections";
import { connectionView } from "./views";
import { errorResponses } from "../../platform/http/error-responses";
import { paged, PageQuerySchema, pageSchema } from "../../platform/http/paging";
import { ConnectionSchema, partnerWorkspaceOf } from "./shapes";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/connections",
  operationId: "listConnections",
  tags: ["Partners"],
  summary: "연결 목록",
  description: "최신 연결부터 돌려줍니다. businessNumber를 주면 그 사업자와의 연결(해지된 것 포함)만 봅니다. 다음 페이지는 nextCursor를 cursor로 보내 받습니다.",
  request: {
    query: PageQuerySchema.extend({
      businessNumber: z.string().max(BUSINESS_NUMBER_INPUT_MAX).optional().meta({ description: "이 사업자와의 연결만 (하이픈 선택)", example: "120-88-00767" }),
    }),
  },
  responses: {
    200: { description: "파트너의 연결 한 페이지 (해지된 것 포함)", content: { "application/json": { schema: pageSchema(ConnectionSchema, "ConnectionPage") } } },
    ...errorResponses("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", "INVALID_CURSOR", "INVALID_PARAM_FORMAT", "INVALID_BUSINESS_REGISTRATION_NUMBER"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const partner = partnerWorkspaceOf(c);
  const query = c.req.valid("query");
  const businessNumber = query.businessNumber === undefined ? undefined : parseBusinessNumber(query.businessNumber, "query.businessNumber");
  const scope = JSON.stringify(["connections", partner, businessNumber ?? null]);
  const page = await paged(c.env.CURSOR_SECRET, scope, query, (after) => listConnections(c.env.DB, partner, { limit: query.limit, after }, businessNumber), connectionView);
  return c.json(page, 200);
};
