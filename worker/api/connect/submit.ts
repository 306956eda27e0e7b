import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { submitRegistration } from "../../domain/registration/submit";
import { registrationCheckDeps } from "../../domain/pipeline/registered-login";
import { CheckStateSchema, checkAnswer } from "./check-state";
import { CERTIFICATE_ERRORS } from "../../domain/certificates/verify";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { code } from "../../platform/http/bounds";

/** 12 bytes in base64url are 16 characters; some room for padding a client may add. */
const MAX_IV_LENGTH = 64;
/** The ciphertext is the credential fields, certificate files included: no longer than the request body may be. */
const MAX_BODY_CHARS = 256 * 1024;
import { REGISTRATION_SESSION_TOKEN, registrationToken } from "./token";
import { behind } from "../../platform/http/route-fronts";
import { deferOf } from "./defer";
import { isConsentTextVersion } from "../../domain/credentials/consent-text";

export const route = behind(createRoute({
  method: "post",
  path: "/connect/api/registrations",
  operationId: "submitHostedRegistration",
  tags: ["Hosted registration UI"],
  summary: "자격 증명 제출 (종단간 암호화)",
  description:
    `Authorization: Bearer <sessionToken>. 자격 증명 필드(JSON)를 브라우저에서 암호화해 보냅니다: 임시 ECDH P-256 키와 서비스 공개 키로 공유 비밀을 만들고, HKDF-SHA-256(salt 없음, info = \"collect-registration-v1:\" + sessionId)로 AES-256-GCM 키를 만들어 additionalData = sessionId로 암호화합니다. 성공하면 토큰은 영구히 무효가 됩니다. 실패한 제출은 시도 횟수에 들어가고 5회가 되면 세션이 잠깁니다. 로그인(아이디 로그인, 간편인증)은 저장하기 전에 기관에서 확인합니다: 기관이 20초 안에 들여보내면 201 CONNECTED, 아직 확인 중이면 202 CHECKING, 본인의 휴대폰 승인을 기다리면 202 AWAITING_HOLDER(awaiting.until까지)이고, 그동안 아무것도 저장하거나 대체하지 않으며 화면은 POST /connect/api/registrations/check로 결과를 묻습니다. 기관이 거절하면 422 CREDENTIAL_PROBE_FAILED(기관의 사유와 남은 시도 횟수, 시도 1회)입니다. 확인 중이던 로그인을 새 제출로 바꾸면 바뀐 로그인은 시도 1회로 셉니다. 한 사람의 휴대폰에는 세션과 워크스페이스를 통틀어 한 시간에 5번까지만 간편인증을 요청하고, 넘으면 요청하지 않고 429 API_RATE_LIMITED(Retry-After, 시도로 세지 않음)입니다. 배포가 등록 확인을 끈 경우(CREDENTIAL_CHECKS=off) 아이디 로그인은 확인 없이 저장됩니다.`,
  security: [{ [REGISTRATION_SESSION_TOKEN]: [] }],
  request: { ...jsonBody(z.object({
    kind: z.enum(["PROVIDER_LOGIN", "CERTIFICATE"]),
    providerCode: code().min(1).optional(),
    authMethod: z.enum(["PROVIDER_LOGIN", "SIMPLE_AUTH"]).optional().meta({ description: "PROVIDER_LOGIN 선택지에서 본인이 고른 로그인 방식 (기관이 여러 방식을 받을 때, 예: hometax의 간편인증). 없으면 PROVIDER_LOGIN(아이디 로그인)" }),
    consentTextVersion: code().refine(isConsentTextVersion, "알 수 없는 동의 문구 버전입니다.").optional().meta({ description: "화면이 보여 준 동의 문구의 버전 (GET /connect/api/session consentText.version). 없으면 현재 버전으로 기록합니다" }),
    envelope: z.object({
      kid: code().min(1),
      epk: z.record(code(), z.unknown()).meta({ description: "브라우저의 임시 ECDH 공개 키 (JWK)" }),
      iv: z.string().min(1).max(MAX_IV_LENGTH).meta({ description: "12바이트, base64url" }),
      ct: z.string().min(1).max(MAX_BODY_CHARS).meta({ description: "암호문 + GCM 태그, base64url" }),
    }),
  })) },
  responses: {
    201: { description: "등록되었습니다 (로그인은 기관이 들여보낸 뒤)", content: { "application/json": { schema: CheckStateSchema } } },
    202: { description: "기관에서 확인 중이거나 본인의 휴대폰 승인을 기다립니다: 아무것도 저장하지 않았습니다", content: { "application/json": { schema: CheckStateSchema } } },
    ...errorResponses(
      "MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "INVALID_BUSINESS_REGISTRATION_NUMBER", "REGISTRATION_SESSION_TOKEN_INVALID", "REGISTRATION_SESSION_OPTION_NOT_ALLOWED", "REGISTRATION_SESSION_BUSINESS_MISMATCH",
      "REGISTRATION_E2E_UNKNOWN_KEY_ID", "REGISTRATION_E2E_DECRYPT_FAILED", "MISSING_CREDENTIAL_FIELD", "INVALID_CREDENTIAL_FORMAT",
      "REGISTRATION_SESSION_ALREADY_CONSUMED", "REGISTRATION_SESSION_ALREADY_CANCELLED", "REGISTRATION_SESSION_EXPIRED", "REGISTRATION_SESSION_MAX_ATTEMPTS_EXCEEDED",
      "REGISTRATION_SESSION_NOT_USABLE", "CREDENTIAL_PROBE_FAILED", "API_RATE_LIMITED", "UNSUPPORTED_AUTH_METHOD", "INVALID_PROVIDER_CODE", "PROVIDER_CODE_REQUIRED_FOR_GLOBAL_CERT", "CREDENTIAL_ALREADY_EXISTS", "CREDENTIAL_CERTIFICATE_SERIAL_BACKFILL_IN_PROGRESS", "CREDENTIAL_RECOVERY_VALIDATION_FAILED", "PROVIDER_DOES_NOT_ACCEPT_CERT_LOGIN", "WORKSPACE_ACCESS_DENIED", ...CERTIFICATE_ERRORS,
    ),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const body = c.req.valid("json");
  const state = await submitRegistration(c.env, registrationToken(c), {
    kind: body.kind,
    providerCode: body.providerCode,
    authMethod: body.authMethod,
    consentTextVersion: body.consentTextVersion,
    envelope: { kid: body.envelope.kid, epk: body.envelope.epk as unknown as JsonWebKey, iv: body.envelope.iv, ct: body.envelope.ct },
  }, registrationCheckDeps(c.env, deferOf(c)));
  const answer = checkAnswer(state);
  return answer.status === "CONSUMED" ? c.json(answer, 201) : c.json(answer, 202);
};
