import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { issueApiKey } from "../../domain/api-keys/store";
import { DEVICE_KEY_TTL_DAYS, pollDeviceCode } from "../../domain/device-codes/store";
import type { ApiEnv } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { int32, MAX, uuid } from "../../platform/http/bounds";
import { errorResponses } from "../../platform/http/error-responses";
import { ApiKeySchema } from "../api-keys/shapes";
import { apiKeyView } from "../api-keys/views";
import { requireMembership } from "../../domain/users/members";
import { revokeKey } from "../../domain/api-keys/revoke";
import { oauthBody } from "./oauth-body";
import { behind } from "../../platform/http/route-fronts";

export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

const TokenRequestSchema = z.object({
  grant_type: z.string().max(100).optional().meta({ description: `RFC 8628 3.4: ${DEVICE_CODE_GRANT} (JSON 요청에서는 빼도 됩니다)` }),
  device_code: z.string().min(1).max(200),
  client_id: z.string().min(1).max(100).optional(),
});

export const route = behind(createRoute({
  method: "post",
  path: "/oauth/device/token",
  operationId: "pollDeviceCode",
  tags: ["Device login"],
  summary: "디바이스 코드 폴링 (API 키 받기)",
  description:
    "RFC 8628 3.4–3.5의 토큰 요청입니다. 승인 전에는 400 DEVICE_AUTHORIZATION_PENDING(error: authorization_pending)을, interval보다 빨리 폴링하면 400 DEVICE_SLOW_DOWN(error: slow_down)을 돌려주며 이후 간격을 5초 늘려 주세요. 승인되면 200으로 승인한 사용자의 워크스페이스에 발급된 새 API 키(access_token)를 한 번만 돌려주며, 이 키는 콘솔의 API 키 화면에서 폐기할 수 있습니다. 사용자가 거부했거나 승인한 사용자가 그사이 워크스페이스에서 빠졌으면 400 DEVICE_ACCESS_DENIED(access_denied)이며 키는 발급되지 않습니다. 발급된 키는 90일 뒤 만료되고(expires_in: 남은 초) 기기 발급(deviceIssued)으로 표시됩니다. 만료된 코드는 400 DEVICE_CODE_EXPIRED(expired_token), 모르거나 이미 쓴 코드는 400 DEVICE_CODE_INVALID(invalid_grant), 다른 grant_type은 400 INVALID_PARAM_FORMAT(unsupported_grant_type)입니다. 오류 응답에는 spec의 code, message, requestId 옆에 RFC 6749 5.2의 error와 error_description이 함께 옵니다.",
  security: [],
  request: oauthBody(TokenRequestSchema),
  responses: {
    200: {
      description: "승인됨: 새 API 키 (RFC 6749 5.1)",
      content: {
        "application/json": {
          schema: z.object({
            access_token: z.string().max(MAX.secret).meta({ description: "API 키. Authorization: Bearer <access_token>" }),
            token_type: z.literal("Bearer"),
            expires_in: int32(0, DEVICE_KEY_TTL_DAYS * 86_400).meta({ description: "RFC 6749 5.1: API 키가 만료되기까지 남은 초 (발급 때 90일)" }),
            workspaceId: uuid(),
            apiKey: ApiKeySchema,
          }),
        },
      },
    },
    ...errorResponses("MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "MALFORMED_REQUEST", "DEVICE_AUTHORIZATION_PENDING", "DEVICE_SLOW_DOWN", "DEVICE_ACCESS_DENIED", "DEVICE_CODE_INVALID", "DEVICE_CODE_EXPIRED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const body = { ...c.req.valid("form"), ...c.req.valid("json") };
  if (body.grant_type !== undefined && body.grant_type !== DEVICE_CODE_GRANT) {
    throw new ApiError("INVALID_PARAM_FORMAT", { message: `grant_type은 ${DEVICE_CODE_GRANT}만 받습니다.`, oauthError: "unsupported_grant_type" });
  }
  const poll = await pollDeviceCode(c.env.DB, body.device_code);
  if (poll.outcome === "slow_down") throw new ApiError("DEVICE_SLOW_DOWN", { oauthError: "slow_down" });
  if (poll.outcome !== "approved") throw new ApiError("DEVICE_AUTHORIZATION_PENDING", { oauthError: "authorization_pending" });
  const { row, secret } = await issueApiKey(c.env.DB, { workspaceId: poll.workspaceId, name: poll.clientName, expiresAt: Date.now() + DEVICE_KEY_TTL_DAYS * 86_400_000, issuedToUserId: poll.approvedBy, issuedByUserId: poll.approvedBy });
  // The approval speaks for its approver only while they still belong to the workspace. Checked after the key is
  // written, so a removal in between either sees the key (and revokes it) or is seen here.
  await requireMembership(c.env.DB, poll.approvedBy, poll.workspaceId).catch(async () => {
    await revokeKey(c.env, poll.workspaceId, row.id);
    throw new ApiError("DEVICE_ACCESS_DENIED", { oauthError: "access_denied" });
  });
  // RFC 6749 5.1: a token response is never cached.
  c.header("Cache-Control", "no-store");
  const expiresIn = Math.max(0, Math.floor((row.expiresAt! - Date.now()) / 1000));
  return c.json({ access_token: secret, token_type: "Bearer" as const, expires_in: expiresIn, workspaceId: poll.workspaceId, apiKey: apiKeyView(row) }, 200);
};
