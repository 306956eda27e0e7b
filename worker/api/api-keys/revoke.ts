import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { revokeKey } from "../../domain/api-keys/revoke";
import { type ApiEnv, principalOf } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { errorResponses } from "../../platform/http/error-responses";
import { pathId } from "../../platform/http/bounds";
import { managing } from "../guards";

export const route = managing("keys.manage", createRoute({
  method: "delete",
  path: "/api-keys/{id}",
  operationId: "revokeApiKey",
  tags: ["API keys"],
  summary: "API 키 폐기",
  description:
    "폐기된 키는 곧바로 401 INVALID_TOKEN이 됩니다. 이미 폐기된 키를 다시 폐기하면 400 API_KEY_ALREADY_REVOKED입니다. 키 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다.",
  request: { params: z.object({ id: pathId().meta({ param: { name: "id", in: "path" } }) }) },
  responses: {
    204: { description: "폐기되었습니다" },
    ...errorResponses("API_KEY_NOT_FOUND", "API_KEY_ALREADY_REVOKED", "ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const outcome = await revokeKey(c.env, principalOf(c).workspaceId, c.req.valid("param").id);
  if (outcome === "NOT_FOUND") throw new ApiError("API_KEY_NOT_FOUND");
  if (outcome === "ALREADY_REVOKED") throw new ApiError("API_KEY_ALREADY_REVOKED");
  return c.body(null, 204);
};
