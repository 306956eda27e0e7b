import { z } from "@hono/zod-openapi";
import { code, MAX, pathId, timestamp } from "../../../platform/http/bounds";

/** What partners read of an outage with its window (the catalog's `maintenance[].note`, at most 100 characters). */
export const OutageNoteSchema = z.string().trim().min(1).max(MAX.name).meta({ description: "파트너에게 보이는 안내 (한국어, 100자까지)" });

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
