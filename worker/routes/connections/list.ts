import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { listConnections } from "../../partners/connections";
import { connectionView } from "./views";
import { errorResponses } from "../../http/error-responses";
import { ConnectionSchema, partnerWorkspaceOf } from "./shapes";

export const route = createRoute({
  method: "get",
  path: "/connections",
  operationId: "listConnections",
  tags: ["Partners"],
  summary: "연결 목록",
  responses: {
    200: { description: "파트너의 연결 (해지된 것 포함)", content: { "application/json": { schema: z.object({ items: z.array(ConnectionSchema) }) } } },
    ...errorResponses("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) =>
  c.json({ items: (await listConnections(c.env.DB, partnerWorkspaceOf(c))).map(connectionView) }, 200);
