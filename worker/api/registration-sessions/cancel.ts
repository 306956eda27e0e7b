import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { cancelSession, findSession } from "../../domain/registration/sessions";
import { sessionView } from "../../domain/registration/views";
import { errorResponses } from "../../platform/http/error-responses";
import { RegistrationSessionSchema, SessionIdParamSchema } from "./shapes";
import { managingBusiness } from "../guards";

export const route = managingBusiness("credentials.manage", createRoute({
  method: "post",
  path: "/registration-sessions/{id}/cancel",
  operationId: "cancelRegistrationSession",
  tags: ["Registration sessions"],
  summary: "등록 세션 취소",
  description: "PENDING 세션만 취소할 수 있습니다. 취소된 토큰은 다시 쓸 수 없습니다.",
  request: { params: SessionIdParamSchema },
  responses: {
    200: { description: "취소된 세션", content: { "application/json": { schema: RegistrationSessionSchema } } },
    ...errorResponses(
      "REGISTRATION_SESSION_NOT_FOUND", "REGISTRATION_SESSION_ALREADY_CANCELLED", "REGISTRATION_SESSION_ALREADY_CONSUMED", "REGISTRATION_SESSION_EXPIRED",
      "REGISTRATION_SESSION_MAX_ATTEMPTS_EXCEEDED",
    ),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const row = await findSession(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id);
  return c.json(sessionView(await cancelSession(c.env, row)), 200);
};
