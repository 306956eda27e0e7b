import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ApiEnv } from "../context";
import { completeConsent, type ConsentOutcome, consentOutcome, startConsent } from "../../domain/registration/open-banking";
import { isConsentTextVersion } from "../../domain/credentials/consent-text";
import { hasActiveJob } from "../../domain/jobs/store";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { code, MAX, timestamp } from "../../platform/http/bounds";
import { isoTime } from "../../platform/lib/iso-time";
import { behind } from "../../platform/http/route-fronts";
import { CONSENT_CALLBACK_CSP, consentCallbackPage } from "../../web/hosted-ui/consent-callback";
import { REGISTRATION_SESSION_TOKEN, registrationToken } from "./token";

const OUTCOME = z.object({ state: z.enum(["WAITING", "CONNECTED", "FAILED"]), code: code().nullable(), message: z.string().max(MAX.text).nullable() });
const outcomeBody = (outcome: ConsentOutcome) => ({ state: outcome.state, code: outcome.state === "FAILED" ? outcome.code : null, message: outcome.state === "FAILED" ? outcome.message : null });

const SESSION_ERRORS = ["REGISTRATION_SESSION_TOKEN_INVALID", "REGISTRATION_SESSION_ALREADY_CONSUMED", "REGISTRATION_SESSION_ALREADY_CANCELLED", "REGISTRATION_SESSION_EXPIRED", "REGISTRATION_SESSION_MAX_ATTEMPTS_EXCEEDED"] as const;

export const startRoute = behind(createRoute({
  method: "post",
  path: "/connect/api/open-banking/authorizations",
  operationId: "startOpenBankingConsent",
  tags: ["Hosted registration UI"],
  summary: "오픈뱅킹 동의 시작",
  description:
    "Authorization: Bearer <sessionToken>. 동의를 받는 선택지(기관 목록의 consent가 true, 예: openbanking)에서 입력 대신 씁니다: 등록 세션에 한 번만, 10분 동안 쓸 수 있는 state를 묶고(해시만 저장) 금융결제원 오픈뱅킹 인증 화면의 주소를 돌려줍니다. 등록 화면은 이 주소를 새 창으로 열고, 본인이 동의하면 서비스의 콜백 화면(/connect/open-banking/callback)이 그 창을 연 등록 화면에만 결과를 postMessage로 넘기고, 등록 화면이 POST /connect/api/open-banking/completions로 동의를 마칩니다. 다른 브라우저에 도착한 콜백은 아무것도 등록하지 않습니다.",
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
  const started = await startConsent(c.env, registrationToken(c), providerCode);
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
      content: { "application/json": { schema: OUTCOME } },
    },
    ...errorResponses("REGISTRATION_SESSION_TOKEN_INVALID"),
  },
}));

export const outcomeHandler: RouteHandler<typeof outcomeRoute, ApiEnv> = async (c) => {
  const outcome = await consentOutcome(c.env, registrationToken(c));
  return c.json(outcomeBody(outcome), 200);
};

export const completeRoute = behind(createRoute({
  method: "post",
  path: "/connect/api/open-banking/completions",
  operationId: "completeOpenBankingConsent",
  tags: ["Hosted registration UI"],
  summary: "오픈뱅킹 동의 마치기",
  description:
    "Authorization: Bearer <sessionToken>. 등록 화면이 연 동의 창이 콜백 화면에서 postMessage로 넘긴 금융결제원의 응답(콜백 주소의 query: code와 state, 또는 error)을 그대로 보내 동의를 마칩니다. 세션이 아직 입력을 받는지 먼저 확인하고(취소·만료·사용됨이면 그 오류, 코드는 바꾸지 않음), state가 이 세션에 묶인 것일 때만 코드를 토큰으로 바꿔 등록하며, 동의 기록에는 화면이 보여 준 동의 문구의 버전(consentTextVersion)을 남깁니다.",
  security: [{ [REGISTRATION_SESSION_TOKEN]: [] }],
  request: {
    ...jsonBody(z.object({
      callbackQuery: z.string().min(1).max(MAX.url * 2).meta({ description: "콜백 주소의 query (예: ?code=...&state=...)" }),
      consentTextVersion: code().refine(isConsentTextVersion, "알 수 없는 동의 문구 버전입니다.").meta({ description: "화면이 보여 준 동의 문구의 버전 (GET /connect/api/session consentText.version)" }),
    })),
  },
  responses: {
    200: { description: "동의 결과: CONNECTED, 또는 FAILED와 그 까닭", content: { "application/json": { schema: OUTCOME } } },
    ...errorResponses("MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "SCRAPING_ENGINE_UNAVAILABLE", ...SESSION_ERRORS),
  },
}));

export const completeHandler: RouteHandler<typeof completeRoute, ApiEnv> = async (c) => {
  const { callbackQuery, consentTextVersion } = c.req.valid("json");
  const outcome = await completeConsent(c.env, registrationToken(c), new URLSearchParams(callbackQuery), consentTextVersion, hasActiveJob);
  return c.json(outcomeBody(outcome), 200);
};

/**
 * KFTC's page sends the person's browser back here (the registered Callback URL): a page that exchanges nothing. It
 * hands KFTC's answer to the hosted page that opened its window, which completes the consent; in a browser that
 * never opened the hosted page there is no such opener, and the consent stays unfinished.
 */
export function callback(c: Context<ApiEnv>): Response {
  return c.html(consentCallbackPage(), 200, { "Content-Security-Policy": CONSENT_CALLBACK_CSP, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
}
