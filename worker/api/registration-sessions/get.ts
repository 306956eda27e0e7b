import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { findSession } from "../../domain/registration/sessions";
import { shownSession } from "../../domain/registration/views";
import { errorResponses } from "../../platform/http/error-responses";
import { RegistrationSessionSchema, SessionIdParamSchema } from "./shapes";
import { businessScoped } from "../guards";

export const route = businessScoped(createRoute({
  method: "get",
  path: "/registration-sessions/{id}",
  operationId: "getRegistrationSession",
  tags: ["Registration sessions"],
  summary: "등록 세션 조회",
  description: "SDK의 onSuccess를 받은 뒤 서버에서 결과를 확인합니다. CONSUMED이면 credentialId와, 등록된 자격 증명으로 기관에 로그인해 본 결과(credentialCheck)가 있습니다.",
  request: { params: SessionIdParamSchema },
  responses: {
    200: { description: "세션", content: { "application/json": { schema: RegistrationSessionSchema } } },
    ...errorResponses("REGISTRATION_SESSION_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(await shownSession(c.env.DB, await findSession(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id)), 200);
