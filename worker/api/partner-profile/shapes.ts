import { z } from "@hono/zod-openapi";
import { uuid } from "../../platform/http/bounds";

export const PartnerProfileSchema = z
  .object({
    id: uuid().meta({ description: "파트너 id (사업자가 GET /partners에서 보는 id)" }),
    name: z.string().max(50).nullable().meta({ description: "사업자에게 보이는 이름. 정하지 않았으면 null", example: "(주)경리나라" }),
  })
  .openapi("PartnerProfile");
