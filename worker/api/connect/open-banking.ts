import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ApiEnv } from "../context";
import { callbackUrl, consentOutcome, finishConsent, startConsent } from "../../domain/registration/open-banking";
import { hasActiveJob } from "../../domain/jobs/store";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { code, MAX, timestamp } from "../../platform/http/bounds";
import { isoTime } from "../../platform/lib/iso-time";
import { behind } from "../../platform/http/route-fronts";
import { CONSENT_RESULT_CSP, consentResultPage } from "../../web/hosted-ui/consent-result";
import { REGISTRATION_SESSION_TOKEN, registrationToken } from "./token";

const SESSION_ERRORS = ["REGISTRATION_SESSION_TOKEN_INVALID", "REGISTRATION_SESSION_ALREADY_CONSUMED", "REGISTRATION_SESSION_ALREADY_CANCELLED", "REGISTRATION_SESSION_EXPIRED", "REGISTRATION_SESSION_MAX_ATTEMPTS_EXCEEDED"] as const;

export const startRoute = behind(createRoute({
  method: "post",
  path: "/connect/api/open-banking/authorizations",
  operationId: "startOpenBankingConsent",
  tags: ["Hosted registration UI"],
  summary: "오픈뱅킹 동의 시작",
  description:
    "Authorization: Bearer <sessionToken>. 동의를 받는 선택지(기관 목록의 consent가 true, 예: openbanking)에서 입력 대신 씁니다: 등록 세션에 한 번만, 10분 동안 쓸 수 있는 state를 묶고(해시만 저장) 금융결제원 오픈뱅킹 인증 화면의 주소를 돌려줍니다. 등록 화면은 이 주소를 새 창으로 열고, 본인이 동의하면 서비스의 콜백(/connect/open-banking/callback)이 코드를 곧바로 토큰으로 바꿔 금고에 넣고 세션을 CONSUMED로 만듭니다. 결과는 GET /connect/api/open-banking/consent로 읽습니다.",
  security: [{ [REGISTRATION_SESSION_TOKEN]: [] }],
  request: { ...jsonBody(z.object({ providerCode: code().min(1) })) },
  responses: {
    201: {
      description: "인증 화면 주소",
      content: { "application/json": { schema: z.object({ authorizationUrl: z.string().max(MAX.url * 2).meta({ description: "본인을 보낼 금융결제원 인증 화면 주소 (state 포함)" }), expiresAt: timestamp().meta({ description: "이 동의 요청이 유효한 끝 시각" }) }) } },
    },
    ...errorResponses("MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "REGISTRATION_SESSION_OPTION_NOT_ALLOWED", "REGISTRATION_SESSION_NOT_USABLE", "SCRAPING_ENGINE_UNAVAILABLE", ...SESSION_ERRORS),
  },
}));

export const startHandler: RouteHandler<typeof startRoute, ApiEnv> = async (c) => {
  const { providerCode } = c.req.valid("json");
  const started = await startConsent(c.env, registrationToken(c), providerCode, callbackUrl(c.env, c.req.url));
  return c.json({ authorizationUrl: started.authorizationUrl, expiresAt: isoTime(started.expiresAt) }, 201);
};

export const outcomeRoute = behind(createRoute({
  method: "get",
  path: "/connect/api/open-banking/consent",
  operationId: "getOpenBankingConsentOutcome",
  tags: ["Hosted registration UI"],
  summary: "오픈뱅킹 동의 결과",
  description: "Authorization: Bearer <sessionToken>. 마지막 동의가 어떻게 끝났는지: WAITING(아직), CONNECTED(자격 증명 등록됨, 세션 CONSUMED), FAILED(취소·만료 등: code는 오류 목록의 코드, message는 본인에게 보여 줄 한국어 문장). 세션이 끝난 뒤에도 읽을 수 있습니다.",
  security: [{ [REGISTRATION_SESSION_TOKEN]: [] }],
  responses: {
    200: {
      description: "동의 결과",
      content: { "application/json": { schema: z.object({ state: z.enum(["WAITING", "CONNECTED", "FAILED"]), code: code().nullable(), message: z.string().max(MAX.text).nullable() }) } },
    },
    ...errorResponses("REGISTRATION_SESSION_TOKEN_INVALID"),
  },
}));

export const outcomeHandler: RouteHandler<typeof outcomeRoute, ApiEnv> = async (c) => {
  const outcome = await consentOutcome(c.env, registrationToken(c));
  return c.json({ state: outcome.state, code: outcome.state === "FAILED" ? outcome.code : null, message: outcome.state === "FAILED" ? outcome.message : null }, 200);
};

/** KFTC's page sends the person's browser back here (the registered Callback URL): a page, not an API call. */
export async function callback(c: Context<ApiEnv>): Promise<Response> {
  const outcome = await finishConsent(c.env, new URL(c.req.url).searchParams, callbackUrl(c.env, c.req.url), hasActiveJob);
  return c.html(consentResultPage(outcome), outcome.state === "CONNECTED" ? 200 : 400, { "Content-Security-Policy": CONSENT_RESULT_CSP, "Cache-Control": "no-store" });
}
