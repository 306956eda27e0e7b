import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { revokeApiKey } from "../../api-keys/store";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { keyGate } from "../../durable-objects/request-gate";
import { errorResponses } from "../../http/error-responses";
import { principalOf } from "../principal";

export const route = createRoute({
  method: "delete",
  path: "/api-keys/{id}",
  operationId: "revokeApiKey",
  tags: ["API keys"],
  summary: "API 키 폐기",
  description: "폐기된 키는 곧바로 401 INVALID_TOKEN이 됩니다. 이미 폐기된 키를 다시 폐기하면 400 API_KEY_ALREADY_REVOKED입니다.",
  request: { params: z.object({ id: z.string().meta({ param: { name: "id", in: "path" } }) }) },
  responses: {
    204: { description: "폐기되었습니다" },
    ...errorResponses("API_KEY_NOT_FOUND", "API_KEY_ALREADY_REVOKED"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const revoked = await revokeApiKey(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id);
  if (revoked.outcome !== "REVOKED") throw new ApiError(revoked.outcome === "NOT_FOUND" ? "API_KEY_NOT_FOUND" : "API_KEY_ALREADY_REVOKED");
  await keyGate(c.env, revoked.hash).forget();
  return c.body(null, 204);
};
