import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { issueApiKey } from "../../api-keys/store";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../http/error-responses";
import { jsonBody } from "../../http/json-body";
import { principalOf } from "../principal";
import { ApiKeySchema } from "./shapes";
import { apiKeyView } from "./views";

export const route = createRoute({
  method: "post",
  path: "/api-keys",
  operationId: "createApiKey",
  tags: ["API keys"],
  summary: "API 키 발급",
  description: "호출한 키의 워크스페이스에 새 키를 발급합니다. 키 값(secret)은 이 응답에서 한 번만 볼 수 있으며 서버에는 해시만 남습니다.",
  request: jsonBody(z.object({
    name: z.string().min(1).max(100),
    expiresAt: z.iso.datetime().optional().meta({ description: "만료 시각. 지나면 401 TOKEN_EXPIRED" }),
  })),
  responses: {
    201: { description: "발급된 키", content: { "application/json": { schema: ApiKeySchema.extend({ secret: z.string() }) } } },
    ...errorResponses("MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const body = c.req.valid("json");
  const { row, secret } = await issueApiKey(c.env.DB, {
    workspaceId: principalOf(c).workspaceId,
    name: body.name,
    expiresAt: body.expiresAt ? Date.parse(body.expiresAt) : null,
  });
  return c.json({ ...apiKeyView(row), secret }, 201);
};
