import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { listCredentials } from "../../credentials/store";
import { credentialView } from "./views";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../http/error-responses";
import { principalOf } from "../principal";
import { CredentialSchema } from "./shapes";

export const route = createRoute({
  method: "get",
  path: "/credentials",
  operationId: "listCredentials",
  tags: ["Credentials"],
  summary: "자격 증명 목록",
  description: "삭제된 자격 증명도 상태와 함께 보입니다.",
  responses: {
    200: { description: "워크스페이스의 자격 증명", content: { "application/json": { schema: z.object({ items: z.array(CredentialSchema) }) } } },
    ...errorResponses(),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) =>
  c.json({ items: (await listCredentials(c.env.DB, principalOf(c).workspaceId)).map(credentialView) }, 200);
