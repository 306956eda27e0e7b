import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { checkPendingLogin } from "../../domain/registration/login-check";
import { usableSessionForPage } from "../../domain/registration/sessions";
import { registrationCheckDeps } from "../../domain/pipeline/registered-login";
import { errorResponses } from "../../platform/http/error-responses";
import { behind } from "../../platform/http/route-fronts";
import { REGISTRATION_SESSION_TOKEN, registrationToken } from "./token";
import { CheckStateSchema, checkAnswer } from "./check-state";
import { deferOf } from "./defer";

const definition = (method: "get" | "post") => behind(createRoute({
  method,
  path: "/connect/api/registrations/check",
  operationId: method === "get" ? "readHostedRegistrationCheck" : "checkHostedRegistration",
  tags: ["Hosted registration UI"],
  summary: "제출한 로그인의 확인 결과 (롱 폴링)",
  description:
    "Authorization: Bearer <sessionToken>. POST /connect/api/registrations가 202(CHECKING 또는 AWAITING_HOLDER)로 답한 로그인을 기관에 묻습니다. 본인의 휴대폰 승인을 기다리는 동안에는 답하기 전에 20초쯤 기다립니다(롱 폴링). 기관이 들여보내면 그때 자격 증명을 저장하고(같은 로그인의 옛 자격 증명 대체, 동의 기록, registration_session.consumed 웹훅) 201 CONNECTED로 답하며, 승인된 간편인증 로그인은 그 자격 증명의 첫 작업이 다시 승인을 받지 않도록 넘겨줍니다. 기관이 거절하면 422 CREDENTIAL_PROBE_FAILED(기관의 사유와 남은 시도 횟수; 시도 1회)이고 아무것도 저장하거나 대체하지 않습니다. 확인할 로그인이 없으면 410 REGISTRATION_SESSION_NOT_USABLE입니다. GET과 POST는 같습니다.",
  security: [{ [REGISTRATION_SESSION_TOKEN]: [] }],
  responses: {
    201: { description: "기관이 들여보내 등록되었습니다", content: { "application/json": { schema: CheckStateSchema } } },
    202: { description: "아직 확인 중이거나 휴대폰 승인을 기다립니다", content: { "application/json": { schema: CheckStateSchema } } },
    ...errorResponses(
      "REGISTRATION_SESSION_TOKEN_INVALID", "REGISTRATION_SESSION_ALREADY_CONSUMED", "REGISTRATION_SESSION_ALREADY_CANCELLED", "REGISTRATION_SESSION_EXPIRED",
      "REGISTRATION_SESSION_MAX_ATTEMPTS_EXCEEDED", "REGISTRATION_SESSION_NOT_USABLE", "CREDENTIAL_PROBE_FAILED", "CREDENTIAL_ALREADY_EXISTS",
    ),
  },
}));

export const getRoute = definition("get");
export const postRoute = definition("post");

export const handler: RouteHandler<typeof getRoute | typeof postRoute, ApiEnv> = async (c) => {
  const session = await usableSessionForPage(c.env.DB, registrationToken(c));
  const answer = checkAnswer(await checkPendingLogin(c.env, registrationCheckDeps(c.env, deferOf(c)), session));
  return answer.status === "CONSUMED" ? c.json(answer, 201) : c.json(answer, 202);
};
