import { z } from "@hono/zod-openapi";

export const ApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().meta({ description: "키의 앞부분. 키를 드러내지 않고 알아보기 위한 값" }),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
    canManageKeys: z.boolean().meta({ description: "키를 조회, 발급, 폐기할 수 있는지" }),
    deviceIssued: z.boolean().meta({ description: "명령줄 로그인(디바이스 승인)으로 발급된 키인지. 이런 키는 90일 뒤 만료됩니다" }),
  })
  .openapi("ApiKey");


