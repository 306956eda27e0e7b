import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { code } from "../../platform/http/bounds";
import { listCredentials } from "../../domain/credentials/store";
import { credentialView } from "../../domain/credentials/views";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { paged, PageQuerySchema, pageSchema } from "../../platform/http/paging";
import { CredentialSchema } from "./shapes";
import { businessScoped } from "../guards";

export const route = businessScoped(createRoute({
  method: "get",
  path: "/credentials",
  operationId: "listCredentials",
  tags: ["Credentials"],
  summary: "자격 증명 목록",
  description: "최신 자격 증명부터 돌려주며, 삭제된 자격 증명도 상태와 함께 보입니다. providerCode를 주면 그 기관의 자격 증명만 봅니다(전체 기관용 인증서는 빠집니다). 다음 페이지는 nextCursor를 cursor로 보내 받습니다.",
  request: { query: PageQuerySchema.extend({ providerCode: code().optional().meta({ description: "이 기관의 자격 증명만", example: "sandbox.bank" }) }) },
  responses: {
    200: { description: "워크스페이스의 자격 증명 한 페이지", content: { "application/json": { schema: pageSchema(CredentialSchema, "CredentialPage") } } },
    ...errorResponses("INVALID_CURSOR", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const query = c.req.valid("query");
  const scope = JSON.stringify(["credentials", workspaceId, query.providerCode ?? null]);
  const page = await paged(c.env.CURSOR_SECRET, scope, query, (after) => listCredentials(c.env.DB, workspaceId, { limit: query.limit, after }, query.providerCode), credentialView);
  return c.json(page, 200);
};
