import { z } from "@hono/zod-openapi";
import { code, MAX, pathId, timestamp } from "../../../http/bounds";

export const OutageSchema = z
  .object({
    id: pathId(),
    providerCode: code(),
    startsAt: timestamp(),
    endsAt: timestamp(),
    note: z.string().max(MAX.text),
    withdrawnAt: timestamp().nullable(),
  })
  .openapi("ProviderOutage");
