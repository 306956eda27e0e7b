import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { issueApiKey } from "../../api-keys/store";
import { pollDeviceCode } from "../../device-codes/store";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../http/error-responses";
import { jsonBody } from "../../http/json-body";
import { ApiKeySchema } from "../api-keys/shapes";
import { apiKeyView } from "../api-keys/views";

export const route = createRoute({
  method: "post",
  path: "/oauth/device/token",
  operationId: "pollDeviceCode",
  tags: ["Device login"],
  summary: "디바이스 코드 폴링 (API 키 받기)",
  description:
    "승인 전에는 202와 status authorization_pending을, interval보다 빨리 폴링하면 status slow_down과 5초 늘어난 interval을 돌려줍니다(이후 그 간격을 지켜 주세요). 승인되면 200으로 승인한 사용자의 워크스페이스에 발급된 새 API 키(access_token)를 한 번만 돌려주며, 이 키는 콘솔의 API 키 화면에서 폐기할 수 있습니다. 만료된 코드는 400 DEVICE_CODE_EXPIRED, 모르거나 이미 쓴 코드는 400 DEVICE_CODE_INVALID입니다.",
  security: [],
  request: jsonBody(z.object({ device_code: z.string().min(1).max(200) })),
  responses: {
    200: {
      description: "승인됨: 새 API 키",
      content: {
        "application/json": {
          schema: z.object({
            status: z.literal("approved"),
            access_token: z.string().meta({ description: "API 키. Authorization: Bearer <access_token>" }),
            token_type: z.literal("Bearer"),
            workspaceId: z.uuid(),
            apiKey: ApiKeySchema,
          }),
        },
      },
    },
    202: {
      description: "아직 승인되지 않음",
      content: { "application/json": { schema: z.object({ status: z.enum(["authorization_pending", "slow_down"]), interval: z.number().int() }) } },
    },
    ...errorResponses("MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "DEVICE_CODE_INVALID", "DEVICE_CODE_EXPIRED"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const poll = await pollDeviceCode(c.env.DB, c.req.valid("json").device_code);
  if (poll.outcome !== "approved") return c.json({ status: poll.outcome, interval: poll.interval }, 202);
  const { row, secret } = await issueApiKey(c.env.DB, { workspaceId: poll.workspaceId, name: poll.clientName });
  return c.json({ status: "approved" as const, access_token: secret, token_type: "Bearer" as const, workspaceId: poll.workspaceId, apiKey: apiKeyView(row) }, 200);
};
