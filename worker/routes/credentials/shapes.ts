import { z } from "@hono/zod-openapi";
import { AUTH_METHODS } from "../../credentials/fields";

export const CredentialSchema = z
  .object({
    id: z.uuid(),
    providerCode: z.string(),
    authMethod: z.enum(AUTH_METHODS),
    status: z.enum(["ACTIVE", "DELETED"]),
    label: z.string().nullable().meta({ description: "가려진 식별 정보 (예: us*****od). 비밀 값은 어떤 응답에도 없습니다" }),
    createdAt: z.iso.datetime(),
    deletedAt: z.iso.datetime().nullable(),
  })
  .openapi("Credential");

export const CredentialIdParamSchema = z.object({ id: z.string().meta({ param: { name: "id", in: "path" } }) });
