import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { revokeConnection } from "../../partners/connections";
import { connectionView } from "./views";
import { errorResponses } from "../../http/error-responses";
import { ConnectionSchema, partnerWorkspaceOf } from "./shapes";

export const route = createRoute({
  method: "delete",
  path: "/connections/{id}",
  operationId: "revokeConnection",
  tags: ["Partners"],
  summary: "연결 해지",
  description: "해지하면 그 사업자의 자격 증명은 곧바로 쓸 수 없게 되고, 그 사업자를 고른 요청은 409 CONNECTION_REVOKED가 됩니다. 다시 연결하면 새 연결이 만들어집니다.",
  request: { params: z.object({ id: z.string().meta({ param: { name: "id", in: "path" } }) }) },
  responses: {
    200: { description: "해지된 연결", content: { "application/json": { schema: ConnectionSchema } } },
    ...errorResponses("CONNECTION_NOT_FOUND", "CONNECTION_REVOKED", "CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) =>
  c.json(connectionView(await revokeConnection(c.env.DB, partnerWorkspaceOf(c), c.req.valid("param").id)), 200);
