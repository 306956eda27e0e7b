import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { listConnections } from "../../partners/connections";
import { connectionView } from "./views";
import { errorResponses } from "../../http/error-responses";
import { paged, PageQuerySchema, pageSchema } from "../paging";
import { ConnectionSchema, partnerWorkspaceOf } from "./shapes";

export const route = createRoute({
  method: "get",
  path: "/connections",
  operationId: "listConnections",
  tags: ["Partners"],
  summary: "연결 목록",
  description: "최신 연결부터 돌려줍니다. 다음 페이지는 nextCursor를 cursor로 보내 받습니다.",
  request: { query: PageQuerySchema },
  responses: {
    200: { description: "파트너의 연결 한 페이지 (해지된 것 포함)", content: { "application/json": { schema: pageSchema(ConnectionSchema, "ConnectionPage") } } },
    ...errorResponses("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", "INVALID_CURSOR", "INVALID_PARAM_FORMAT"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const partner = partnerWorkspaceOf(c);
  const query = c.req.valid("query");
  const page = await paged(c.env.CURSOR_SECRET, JSON.stringify(["connections", partner]), query, (after) => listConnections(c.env.DB, partner, { limit: query.limit, after }), connectionView);
  return c.json(page, 200);
};
