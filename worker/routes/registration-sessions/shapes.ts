import { z } from "@hono/zod-openapi";
import { REGISTRATION_SESSION_STATUSES } from "../../db/tables";

export const RegistrationOptionSchema = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("CERTIFICATE") }),
    z.strictObject({ kind: z.literal("PROVIDER_LOGIN"), providerCode: z.string().min(1) }),
  ])
  .meta({ description: "PROVIDER_LOGIN에는 providerCode가 있어야 하고, CERTIFICATE에는 없어야 합니다" })
  .openapi("RegistrationOption");

export const RegistrationSessionSchema = z
  .object({
    sessionId: z.uuid(),
    status: z.enum(REGISTRATION_SESSION_STATUSES).meta({
      description: "PENDING(입력 대기) → CONSUMED(등록 완료) | CANCELLED(파트너가 취소) | EXPIRED(30분 경과) | LOCKED(실패 5회). PENDING 외에는 모두 최종 상태",
    }),
    expiresAt: z.iso.datetime(),
    clientReferenceId: z.string().nullable(),
    registrationOptions: z.array(RegistrationOptionSchema),
    originAllowlist: z.array(z.string()),
    attempts: z.number().int(),
    maxAttempts: z.number().int(),
    credentialId: z.uuid().nullable().meta({ description: "CONSUMED일 때 등록된 자격 증명 id" }),
  })
  .openapi("RegistrationSession");

export const SessionIdParamSchema = z.object({ id: z.string().meta({ param: { name: "id", in: "path" } }) });
