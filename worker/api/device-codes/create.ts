import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { startDeviceAuthorization, DEVICE_CODE_PAGE } from "../../domain/device-codes/store";
import type { ApiEnv } from "../context";
import { int32, MAX } from "../../platform/http/bounds";
import { errorResponses } from "../../platform/http/error-responses";
import { oauthBody } from "./oauth-body";
import { behind } from "../../platform/http/route-fronts";

const DeviceAuthorizationRequestSchema = z.object({
  client_id: z.string().min(1).max(100).optional().meta({ description: "RFC 8628 3.1의 client_id. 등록된 클라이언트가 따로 없으므로 이름으로 씁니다 (client_name이 없을 때)" }),
  client_name: z.string().min(1).max(100).optional().meta({ description: "승인 화면과 키 목록에 보일 클라이언트 이름" }),
  clientName: z.string().min(1).max(100).optional().meta({ description: "client_name과 같습니다 (JSON 요청용)" }),
  platform: z.string().min(1).max(100).optional().meta({ description: "클라이언트가 도는 환경(예: linux x64, Node 22). 승인 화면에 보입니다 (RFC 8628에는 없는, 이 서비스의 필드)" }),
});

export const route = behind(createRoute({
  method: "post",
  path: "/oauth/device_authorization",
  operationId: "createDeviceCode",
  tags: ["Device login"],
  summary: "디바이스 코드 발급 (명령줄 로그인 시작)",
  description:
    "RFC 8628 디바이스 권한 부여의 시작입니다. API 키 없이 부르며, 표준 클라이언트처럼 application/x-www-form-urlencoded(client_id)로도, JSON으로도 보낼 수 있습니다. 사용자에게 user_code와 verification_uri를 보여 주고, device_code로 POST /oauth/device/token을 interval초 간격으로 폴링합니다. 사용자가 콘솔에서 코드를 승인하면 토큰 응답으로 워크스페이스의 새 API 키를 받습니다.",
  security: [],
  request: oauthBody(DeviceAuthorizationRequestSchema),
  responses: {
    200: {
      description: "발급된 코드 (RFC 8628 3.2)",
      content: {
        "application/json": {
          schema: z.object({
            device_code: z.string().max(MAX.secret).meta({ description: "클라이언트만 아는 폴링용 코드" }),
            user_code: z.string().max(9).meta({ description: "사용자가 콘솔에 입력할 코드, 예: BCDF-GHJK" }),
            verification_uri: z.url().max(MAX.url),
            verification_uri_complete: z.url().max(MAX.url).meta({ description: "user_code가 채워진 승인 페이지" }),
            expires_in: int32(1, 3600).meta({ description: "초" }),
            interval: int32(1, 3600).meta({ description: "최소 폴링 간격(초)" }),
          }),
        },
      },
    },
    ...errorResponses("INVALID_PARAM_FORMAT", "MALFORMED_REQUEST"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const body = { ...c.req.valid("form"), ...c.req.valid("json") };
  const started = await startDeviceAuthorization(c.env.DB, { name: body.clientName ?? body.client_name ?? body.client_id ?? "CLI", platform: body.platform ?? null });
  const page = `${new URL(c.req.url).origin}${DEVICE_CODE_PAGE}`;
  return c.json(
    {
      device_code: started.deviceCode,
      user_code: started.userCode,
      verification_uri: page,
      verification_uri_complete: `${page}?user_code=${encodeURIComponent(started.userCode)}`,
      expires_in: started.expiresIn,
      interval: started.interval,
    },
    200,
  );
};
