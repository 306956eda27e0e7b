import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { findSchema } from "../../domain/catalog/schemas";
import { allProviders, AUTH_METHOD_NAMES, findProvider, type ProviderDefinition, takesConsent } from "../../domain/catalog/providers";
import type { ApiEnv } from "../context";
import { currentPublicKey } from "../../domain/registration/e2e-keys";
import { usableSessionForPage } from "../../domain/registration/sessions";
import { errorResponses } from "../../platform/http/error-responses";
import { code, MAX, timestamp, uuid } from "../../platform/http/bounds";
import { isoTime } from "../../platform/lib/iso-time";
import { REGISTRATION_SESSION_TOKEN, registrationToken } from "./token";
import { requestingPartnerName } from "../../domain/partners/connections";
import { behind } from "../../platform/http/route-fronts";
import { consentParagraphs, CURRENT_CONSENT_TEXT_VERSION } from "../../domain/credentials/consent-text";
import { consentPeriodDays } from "../../domain/credentials/consent-record";
import { consentTermsOf } from "../../domain/workspaces/store";

/** A consent text's paragraphs are a few sentences each. */
const MAX_CONSENT_PARAGRAPHS = 20;

const Field = z.object({
  name: code(),
  label: z.string().max(MAX.name),
  pattern: z.string().max(MAX.text),
  secret: z.boolean(),
  required: z.boolean(),
  input: z.enum(["text", "file", "select"]),
  options: z.array(z.object({ value: code(), label: z.string().max(MAX.name) })).max(MAX.items).optional(),
});

/** The login methods a PROVIDER_LOGIN option's person may choose from: ID login, and 간편인증 where the provider takes it. */
const LOGIN_METHODS = ["PROVIDER_LOGIN", "SIMPLE_AUTH"] as const;

const fieldsOf = (provider: ProviderDefinition, authMethod: string) =>
  provider.credentialFields.filter((f) => f.authMethod === authMethod).map(({ name, label, pattern, secret, required, input, options }) => ({ name, label, pattern, secret, required, input, ...(options ? { options } : {}) }));

export const route = behind(createRoute({
  method: "get",
  path: "/connect/api/session",
  operationId: "getHostedRegistrationSession",
  tags: ["Hosted registration UI"],
  summary: "등록 UI용 세션 정보",
  description:
    "Authorization: Bearer <sessionToken>. 선택지별 입력 필드, 암호화 키와 세션의 originAllowlist를 돌려줍니다. 등록 화면은 브라우저가 알려 준 여는 창의 출처와 프레임 조상 출처가 모두 이 목록에 있을 때만 입력 화면을 보여 줍니다: 허용 출처는 세션에서만 나오며, 요청 헤더로 받지 않습니다.",
  security: [{ [REGISTRATION_SESSION_TOKEN]: [] }],
  responses: {
    200: {
      description: "세션",
      content: {
        "application/json": {
          schema: z.object({
            sessionId: uuid(),
            expiresAt: timestamp(),
            options: z
              .array(z.object({ kind: z.enum(["PROVIDER_LOGIN", "CERTIFICATE"]), providerCode: code(), providerName: z.string().max(MAX.name),
                  fields: z.array(Field).max(MAX.items),
                  methods: z
                    .array(z.object({ authMethod: z.enum(LOGIN_METHODS), name: z.string().max(MAX.name), fields: z.array(Field).max(MAX.items) }))
                    .max(LOGIN_METHODS.length)
                    .optional()
                    .meta({ description: "PROVIDER_LOGIN 선택지의 기관이 로그인 방식을 여럿 받을 때(hometax: 아이디 로그인, 간편인증) 본인이 고를 방식과 각 입력 필드. 고른 방식을 제출의 authMethod로 보냅니다" }),
                  lockAfterWrongPasswords: z.number().int().min(1).max(99).nullable().meta({ format: "int32", description: "기관이 아이디 로그인을 잠그기까지 받는 틀린 비밀번호 횟수. 출처가 있는 기관만 알려 주며, 모르면 null (아이디 로그인이 아닌 선택지도 null)" }),
                  consent: z.boolean().meta({ description: "true: 입력 필드 없이 기관의 동의 화면에서 본인이 동의해 연결합니다 (오픈뱅킹: POST /connect/api/open-banking/authorizations)" }),
                  schemas: z.array(z.object({ id: code(), title: z.string().max(MAX.name) })).max(MAX.items).meta({ description: "이 선택지로 등록한 자격 증명이 수집할 자료: 등록 화면이 최종 사용자에게 보여 주고 동의를 받는 범위" }) }))
              .max(MAX.items),
            encryptionKey: z.object({ kid: code(), jwk: z.record(code(), z.unknown()) }),
            originAllowlist: z.array(z.string().max(MAX.url)).max(10).meta({ description: "등록 화면을 열 수 있는 출처들 (세션 발급 때 정한 것)" }),
            partnerName: z.string().max(50).nullable().meta({ description: "이 등록을 요청한 파트너가 밝힌 이름. 파트너 세션이 아니거나 이름을 밝히지 않았으면 null" }),
            consentText: z
              .object({
                version: code().meta({ description: "동의 문구의 버전. 제출할 때 consentTextVersion으로 돌려보내면 자격 증명의 동의 기록(consentRecord.textVersion)에 남습니다", example: CURRENT_CONSENT_TEXT_VERSION }),
                paragraphs: z.array(z.string().max(MAX.text)).max(MAX_CONSENT_PARAGRAPHS),
                days: z.number().int().min(1).max(366).meta({ format: "int32", description: "동의가 이어지는 일수 (요청한 파트너의, 없으면 워크스페이스의 설정, 최대 365일)" }),
              })
              .meta({ description: "등록 화면이 제출 전에 보여 주는 동의 문구 (한국어, 버전별로 코드에 보관)" }),
          }),
        },
      },
    },
    ...errorResponses(
      "REGISTRATION_SESSION_TOKEN_INVALID", "REGISTRATION_SESSION_ALREADY_CONSUMED", "REGISTRATION_SESSION_ALREADY_CANCELLED", "REGISTRATION_SESSION_EXPIRED",
      "REGISTRATION_SESSION_MAX_ATTEMPTS_EXCEEDED",
    ),
  },
}));

function loginMethods(kind: string, provider: ProviderDefinition) {
  const methods = LOGIN_METHODS.filter((m) => kind === "PROVIDER_LOGIN" && provider.acceptedAuthMethods.includes(m));
  return methods.length > 1 ? { methods: methods.map((authMethod) => ({ authMethod, name: AUTH_METHOD_NAMES[authMethod], fields: fieldsOf(provider, authMethod) })) } : {};
}

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const session = await usableSessionForPage(c.env.DB, registrationToken(c));
  // A certificate option offers every provider that takes certificates and serves a schema it asks consent for; a
  // login option its one provider.
  const options = session.options.flatMap((option) => {
    const providers = option.kind === "PROVIDER_LOGIN" ? [findProvider(option.providerCode)!] : allProviders().filter((p) => p.acceptedAuthMethods.includes("CERTIFICATE"));
    return providers.map((provider) => ({
      kind: option.kind,
      providerCode: provider.code,
      providerName: provider.name,
      consent: takesConsent(provider),
      lockAfterWrongPasswords: option.kind === "PROVIDER_LOGIN" ? (provider.lockAfterWrongPasswords ?? null) : null,
      fields: fieldsOf(provider, option.kind),
      ...loginMethods(option.kind, provider),
      schemas: provider.schemas.filter((id) => !option.schemas || option.schemas.includes(id)).map((id) => ({ id, title: findSchema(id)!.title })),
    }));
  }).filter((option) => option.schemas.length > 0);
  const [partnerName, days, workspace] = await Promise.all([
    requestingPartnerName(c.env.DB, session.workspaceId), consentPeriodDays(c.env.DB, session.workspaceId), consentTermsOf(c.env.DB, session.workspaceId),
  ]);
  // Who asks, by name: the partner when it named itself, else the workspace the credential will be held in.
  const requester = partnerName ?? (workspace.name || "연결을 요청한 곳");
  const consentText = { version: CURRENT_CONSENT_TEXT_VERSION, paragraphs: consentParagraphs(CURRENT_CONSENT_TEXT_VERSION, requester, days), days };
  return c.json(
    {
      sessionId: session.id,
      expiresAt: isoTime(session.expiresAt),
      options,
      encryptionKey: currentPublicKey(c.env.REGISTRATION_E2E_KEYS),
      originAllowlist: session.originAllowlist,
      partnerName,
      consentText,
    },
    200,
  );
};
