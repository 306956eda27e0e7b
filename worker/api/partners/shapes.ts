import { z } from "@hono/zod-openapi";
import type { ActingPartner } from "../../domain/partners/connections";
import { isoTime } from "../../platform/lib/iso-time";
import { pathId, timestamp, uuid } from "../../platform/http/bounds";

export const ActingPartnerSchema = z
  .object({
    id: uuid().meta({ description: "파트너 id" }),
    name: z.string().max(50).nullable().meta({ description: "파트너가 밝힌 이름 (PATCH /api/v1/partner-profile). 밝히지 않았으면 null", example: "(주)경리나라" }),
    connectionId: uuid().meta({ description: "이 사업자와 파트너의 연결" }),
    connectedAt: timestamp(),
  })
  .openapi("ActingPartner");

export const PartnerIdParamSchema = z.object({ id: pathId().meta({ param: { name: "id", in: "path" } }) });

export function actingPartnerView(row: ActingPartner) {
  return { id: row.id, name: row.name, connectionId: row.connectionId, connectedAt: isoTime(row.connectedAt) };
}
