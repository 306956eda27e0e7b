import { z } from "@hono/zod-openapi";
import { consentSchemasField, nullableCheck } from "../credentials/shapes";
import { code, int32, pathId, timestamp, uuid } from "../../platform/http/bounds";
import { MAX_ATTEMPTS } from "../../domain/registration/status";

/** The spec's limit on clientReferenceId. */
export const MAX_CLIENT_REFERENCE_ID = 128;
/** registrationOptions and originAllowlist take at most this many entries. */
export const MAX_LIST = 10;
/** `scheme://host[:port]`: a host name is at most 253 characters. */
export const MAX_ORIGIN_LENGTH = 300;
import { REGISTRATION_SESSION_STATUSES } from "../../domain/registration/tables";

export const RegistrationOptionSchema = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("CERTIFICATE"), schemas: consentSchemasField() }),
    z.strictObject({ kind: z.literal("PROVIDER_LOGIN"), providerCode: code().min(1), schemas: consentSchemasField() }),
  ])
  .meta({ description: "PROVIDER_LOGIN에는 providerCode가 있어야 하고, CERTIFICATE에는 없어야 합니다. schemas는 최종 사용자에게 동의를 받을 수집 범위입니다(등록 화면에 보이고, 등록된 자격 증명의 schemas가 됩니다)" })
  .openapi("RegistrationOption");

export const RegistrationSessionSchema = z
  .object({
    sessionId: uuid(),
    status: z.enum(REGISTRATION_SESSION_STATUSES).meta({
      description: "PENDING(입력 대기) → CONSUMED(등록 완료) | CANCELLED(파트너가 취소) | EXPIRED(30분 경과) | LOCKED(실패 5회). PENDING 외에는 모두 최종 상태",
    }),
    expiresAt: timestamp(),
    clientReferenceId: z.string().max(MAX_CLIENT_REFERENCE_ID).nullable(),
    registrationOptions: z.array(RegistrationOptionSchema).max(MAX_LIST),
    originAllowlist: z.array(z.string().max(MAX_ORIGIN_LENGTH)).max(MAX_LIST),
    attempts: int32(0, MAX_ATTEMPTS),
    maxAttempts: int32(0, MAX_ATTEMPTS),
    credentialId: uuid().nullable().meta({ description: "CONSUMED일 때 등록된 자격 증명 id" }),
    credentialCheck: nullableCheck().meta({ description: "CONSUMED일 때 등록된 자격 증명의 로그인 확인 (CHECKING → VALID, INVALID, UNKNOWN). 그 밖에는 null" }),
  })
  .openapi("RegistrationSession");

export const SessionIdParamSchema = z.object({ id: pathId().meta({ param: { name: "id", in: "path" } }) });
