import { z } from "@hono/zod-openapi";
import { isoTime, isoTimeOrNull } from "../../lib/iso-time";

export const ApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().meta({ description: "키의 앞부분. 키를 드러내지 않고 알아보기 위한 값" }),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .openapi("ApiKey");


export function apiKeyView(row: { id: string; name: string; prefix: string; createdAt: number; expiresAt: number | null; revokedAt: number | null }) {
  return { id: row.id, name: row.name, prefix: row.prefix, createdAt: isoTime(row.createdAt), expiresAt: isoTimeOrNull(row.expiresAt), revokedAt: isoTimeOrNull(row.revokedAt) };
}
