import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { AdminApiEnv } from "../../context";
import { errorResponses } from "../../../platform/http/error-responses";
import { jsonBody } from "../../../platform/http/json-body";
import { clientAddress } from "../../../platform/http/client-address";
import { isoTime } from "../../../platform/lib/iso-time";
import { signInOperator } from "../../../domain/operators/sign-in";
import { OperatorSchema } from "../shapes";
import { behind } from "../../../platform/http/route-fronts";

export const route = behind(createRoute({
  method: "post",
  path: "/sessions",
  operationId: "signInOperator",
  tags: ["Operator sessions"],
  summary: "운영자 로그인",
  description:
    "비밀번호와 인증 앱의 TOTP 코드(RFC 6238, 30초, 6자리)가 모두 맞아야 세션 토큰을 줍니다. 무엇이 틀렸는지는 알려 주지 않고 401 INVALID_CREDENTIALS이며, 시도는 콘솔 로그인처럼 제한됩니다(IPv6 주소는 /64 단위로 셉니다). 한 계정에 15분 안에 10번 실패하면 그 계정은 남은 시간 동안 맞는 비밀번호와 코드로도 열리지 않고(429 TOO_MANY_LOGIN_ATTEMPTS, Retry-After) 운영자 알림이 열립니다. 한 코드로는 한 번만 로그인합니다. 토큰은 30분 동안 쓰지 않으면 끝나고(expiresAt은 쓸 때마다 30분 뒤로 밀립니다), 써도 로그인 후 8시간을 넘지 않습니다. 이후 호출의 Authorization: Bearer에 넣습니다.",
  security: [],
  request: {
    ...jsonBody(
      z.object({
        email: z.string().max(254),
        password: z.string().max(1024),
        code: z.string().max(6).meta({ description: "인증 앱의 6자리 코드" }),
      }),
    ),
  },
  responses: {
    201: {
      description: "운영자 세션",
      content: { "application/json": { schema: z.object({ token: z.string().max(100), expiresAt: z.string().max(40), operator: OperatorSchema }).openapi("OperatorSession") } },
    },
    ...errorResponses("INVALID_CREDENTIALS", "TOO_MANY_LOGIN_ATTEMPTS", "ADMIN_ACTION_NOT_MARKED"),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const session = await signInOperator(c.env, c.req.valid("json"), clientAddress(c), c.get("requestId"));
  const { id, email, role } = session.operator;
  return c.json({ token: session.token, expiresAt: isoTime(session.expiresAt), operator: { id, email, role } }, 201);
};
