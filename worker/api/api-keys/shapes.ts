import { z } from "@hono/zod-openapi";
import { MAX, timestamp, uuid } from "../../platform/http/bounds";

export const ApiKeySchema = z
  .object({
    id: uuid(),
    name: z.string().max(MAX.name),
    prefix: z.string().max(MAX.name).meta({ description: "키의 앞부분. 키를 드러내지 않고 알아보기 위한 값" }),
    createdAt: timestamp(),
    expiresAt: timestamp().nullable(),
    revokedAt: timestamp().nullable(),
    canManageKeys: z.boolean().meta({ description: "키를 조회, 발급, 폐기할 수 있는지" }),
    deviceIssued: z.boolean().meta({ description: "명령줄 로그인(디바이스 승인)으로 발급된 키인지. 이런 키는 90일 뒤 만료됩니다" }),
  })
  .openapi("ApiKey");


