import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { partnersActingFor } from "../../domain/partners/connections";
import { provenBusinessOf } from "./business-self";
import { ActingPartnerSchema, actingPartnerView } from "./shapes";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/partners",
  operationId: "listActingPartners",
  tags: ["Partners"],
  summary: "내 사업자를 대신해 일하는 파트너",
  description:
    "이 워크스페이스의 사업자에 연결된 파트너들입니다(해지된 연결은 빠집니다). 사업자 본인만 볼 수 있어, 워크스페이스가 그 사업자등록번호로 발급된 공동인증서를 자격 증명으로 가지고 있어야 합니다(아니면 403 WORKSPACE_ACCESS_DENIED).",
  responses: {
    200: { description: "파트너 목록", content: { "application/json": { schema: z.object({ items: z.array(ActingPartnerSchema).max(1000) }).openapi("ActingPartnerList") } } },
    ...errorResponses("WORKSPACE_ACCESS_DENIED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const rows = await partnersActingFor(c.env.DB, await provenBusinessOf(c));
  return c.json({ items: rows.map(actingPartnerView) }, 200);
};
