import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { MAX, timestamp } from "../../platform/http/bounds";
import { issuedRights } from "../../domain/api-keys/rights";
import { issuePersonsKey, issuerOfKey } from "../../domain/users/issued-keys";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { ApiKeySchema } from "./shapes";
import { apiKeyView } from "./views";
import { managing } from "../guards";
import { LOGS_BODY } from "../request-log";

export const route = managing("keys.manage", createRoute({
  method: "post",
  path: "/api-keys",
  operationId: "createApiKey",
  tags: ["API keys"],
  summary: "API 키 발급",
  description:
    "호출한 키의 워크스페이스에 새 키를 발급합니다. 키 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다. 새 키는 발급하는 키보다 오래 유효할 수 없습니다: 더 늦은 expiresAt은 400 INVALID_PARAM_FORMAT(body.expiresAt)이고, expiresAt을 빼면 발급하는 키의 만료 시각(없으면 만료 없음)을 물려받습니다. 키 값(secret)은 이 응답에서 한 번만 볼 수 있으며 서버에는 해시만 남습니다.",
  request: jsonBody(z.object({
    name: z.string().min(1).max(MAX.name),
    expiresAt: timestamp().optional().meta({ description: "만료 시각. 지나면 401 TOKEN_EXPIRED. 발급하는 키의 만료 시각 이후일 수 없습니다" }),
    canManageKeys: z.boolean().optional().meta({ description: "새 키에 키 관리 권한을 줄지 (기본 false)" }),
  })),
  responses: {
    201: { description: "발급된 키", content: { "application/json": { schema: ApiKeySchema.extend({ secret: z.string().max(MAX.secret) }) } } },
    ...errorResponses("MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "ADMIN_ACTION_FORBIDDEN"),
  },
}), LOGS_BODY);

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const body = c.req.valid("json");
  const principal = principalOf(c);
  const rights = issuedRights(principal.rights, { canManageKeys: body.canManageKeys, expiresAt: body.expiresAt ? Date.parse(body.expiresAt) : undefined });
  // The new key is the same person's doing as the key that makes it: their managing keys all go when they stop owning the workspace.
  const issuedByUserId = await issuerOfKey(c.env.DB, principal.apiKeyId);
  const { row, secret } = await issuePersonsKey(c.env, { workspaceId: principal.workspaceId, name: body.name, ...rights, issuedByUserId });
  return c.json({ ...apiKeyView(row), secret }, 201);
};
