import { createRoute, type Hook, type RouteHandler, z } from "@hono/zod-openapi";
import { allProviders, findProvider, takesConsent } from "../../domain/catalog/providers";
import { workspaceBusinessNumber } from "../../domain/workspaces/store";
import { type ApiEnv, principalOf } from "../context";
import { ApiError, fieldError } from "../../platform/errors/api-error";
import type { ApiErrorCode } from "../../platform/errors/codes";
import { toFieldErrors } from "../../platform/http/validation-hook";
import { issueSession, type RegistrationOption } from "../../domain/registration/sessions";
import { consentedSchemas } from "../../domain/credentials/consent";
import { GLOBAL_PROVIDER } from "../../domain/credentials/identity";
import { findCredential } from "../../domain/credentials/store";
import { assertRecoverable, recoveryOption } from "../../domain/credentials/recovery";
import { sessionView } from "../../domain/registration/views";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { MAX_CLIENT_REFERENCE_ID, MAX_LIST, MAX_ORIGIN_LENGTH, RegistrationOptionSchema } from "./shapes";
import { MAX, timestamp, uuid } from "../../platform/http/bounds";
import { managingBusiness } from "../guards";
import { LOGS_BODY } from "../request-log";

/**
 * `scheme://host[:port]` and nothing else: no path, query, fragment or trailing slash. Case is spelled out rather
 * than flagged: the document publishes the pattern, and a JSON Schema pattern carries no flags.
 */
const ORIGIN = /^[hH][tT][tT][pP][sS]?:\/\/(?:[a-zA-Z0-9-]+\.)*[a-zA-Z0-9-]+(?::\d{1,5})?$/;

const Body = z.object({
  registrationOptions: z.array(RegistrationOptionSchema).min(1).max(MAX_LIST),
  originAllowlist: z.array(z.string().max(MAX_ORIGIN_LENGTH).regex(ORIGIN)).min(1).max(MAX_LIST).meta({ description: "SDK를 여는 페이지의 출처. 각 항목은 scheme://host[:port]", example: ["https://partner.example"] }),
  clientReferenceId: z.string().max(MAX_CLIENT_REFERENCE_ID).optional().meta({ description: "파트너가 붙이는 참조 값, 최대 128자" }),
  recoverCredentialId: uuid().optional().meta({
    description:
      "비밀 값을 잃은 자격 증명(기관이 거절해 지워졌거나 열 키가 없는 것)을 되살리는 세션: 최종 사용자가 같은 아이디나 인증서의 비밀 값만 다시 입력하고, 자격 증명은 id를 그대로 지닙니다. registrationOptions는 그 자격 증명의 방식과 기관 하나여야 합니다 (docs/credentials.md)",
  }),
});

export const route = managingBusiness("credentials.manage", createRoute({
  method: "post",
  path: "/registration-sessions",
  operationId: "createRegistrationSession",
  tags: ["Registration sessions"],
  summary: "등록 세션 발급",
  description:
    "최종 사용자가 브라우저에서 자격 증명을 등록하도록 일회용 sessionToken을 발급합니다(30분 유효). 토큰은 파트너 프런트엔드의 SDK에만 넘기세요. 사업자등록번호는 API 키의 워크스페이스에서 정해집니다.",
  request: jsonBody(Body),
  responses: {
    201: {
      description: "발급된 세션",
      content: { "application/json": { schema: z.object({ sessionId: uuid(), sessionToken: z.string().max(MAX.secret), expiresAt: timestamp(), status: z.literal("PENDING") }) } },
    },
    ...errorResponses(
      "INVALID_PARAM_FORMAT", "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS", "REGISTRATION_SESSION_INVALID_ORIGIN",
      "REGISTRATION_SESSION_INVALID_CLIENT_REFERENCE_ID", "CREDENTIAL_NOT_FOUND", "CREDENTIAL_SUPERSEDED", "CREDENTIAL_RECOVERY_NOT_ALLOWED", "CREDENTIAL_RECOVERY_IN_PROGRESS",
    ),
  },
}), LOGS_BODY);

const FIELD_CODES: Record<string, ApiErrorCode> = {
  registrationOptions: "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS",
  originAllowlist: "REGISTRATION_SESSION_INVALID_ORIGIN",
  clientReferenceId: "REGISTRATION_SESSION_INVALID_CLIENT_REFERENCE_ID",
};

/** Every problem with a body field is that field's own spec code. */
export const hook: Hook<unknown, ApiEnv, string, undefined> = (result) => {
  if (result.success) return;
  const { error, data } = result as unknown as { error: z.ZodError; data: unknown };
  const fieldErrors = toFieldErrors(error, data, "body").map((f) => {
    const code = FIELD_CODES[f.field.split(".")[1] ?? ""];
    return code ? { ...f, code } : f;
  });
  throw new ApiError(fieldErrors[0]!.code, { fieldErrors });
};

/** Each option must be one a provider can complete, and ask consent only for schemas it can serve: the options as issued, their schemas in order. */
function checkedOptions(options: z.infer<typeof Body>["registrationOptions"]): RegistrationOption[] {
  return options.map((option, index) => {
    const field = `body.registrationOptions.${index}`;
    checkProvider(option, field);
    const schemas = consentedSchemas(option.kind === "CERTIFICATE" ? GLOBAL_PROVIDER : option.providerCode, option.schemas, `${field}.schemas`, "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS");
    return schemas ? { ...option, schemas } : option;
  });
}

function checkProvider(option: z.infer<typeof RegistrationOptionSchema>, field: string): void {
  if (option.kind === "CERTIFICATE") {
    // The end-user picks the provider in the UI; a session no provider could complete is refused now.
    if (allProviders().some((p) => p.acceptedAuthMethods.includes("CERTIFICATE"))) return;
    throw new ApiError("REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS", {
      fieldErrors: [fieldError(field, "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS", "인증서 등록을 받는 기관이 없습니다.")],
    });
  }
  const provider = findProvider(option.providerCode);
  // A consent provider (Open Banking) is offered with the spec's PROVIDER_LOGIN kind: the hosted page asks for consent instead of fields.
  if (!provider || !(provider.acceptedAuthMethods.includes("PROVIDER_LOGIN") || takesConsent(provider))) {
    throw new ApiError("REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS", {
      fieldErrors: [fieldError(`${field}.providerCode`, "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS", "아이디 로그인을 받지 않거나 알 수 없는 기관입니다.")],
    });
  }
}

/** A recovery session offers exactly the credential's own way in, so the end-user cannot register another. */
async function checkRecovery(c: Parameters<RouteHandler<typeof route, ApiEnv>>[0], workspaceId: string, body: z.infer<typeof Body>): Promise<void> {
  if (!body.recoverCredentialId) return;
  const credential = await findCredential(c.env.DB, workspaceId, body.recoverCredentialId);
  assertRecoverable(credential, c.env.VAULT_MASTER_KEY);
  const expected = recoveryOption(credential);
  const [only, ...more] = body.registrationOptions;
  // It keeps the consent it was registered with, so a recovery option asks for none.
  const matches = more.length === 0 && only!.kind === expected.kind && (expected.kind === "CERTIFICATE" || (only as { providerCode?: string }).providerCode === expected.providerCode) && !only!.schemas;
  if (!matches) {
    throw new ApiError("REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS", {
      fieldErrors: [fieldError("body.registrationOptions", "REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS", "되살리는 세션의 선택지는 그 자격 증명의 방식과 기관 하나여야 합니다.")],
    });
  }
}

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const body = c.req.valid("json");
  const options = checkedOptions(body.registrationOptions);
  const { workspaceId } = principalOf(c);
  await checkRecovery(c, workspaceId, body);
  const { row, token } = await issueSession(c.env.DB, {
    workspaceId,
    businessNumber: await workspaceBusinessNumber(c.env.DB, workspaceId),
    options,
    originAllowlist: body.originAllowlist.map((o) => o.toLowerCase()),
    clientReferenceId: body.clientReferenceId ?? null,
    recoversCredentialId: body.recoverCredentialId,
  });
  return c.json({ sessionId: row.id, sessionToken: token, expiresAt: sessionView(row).expiresAt, status: "PENDING" as const }, 201);
};
