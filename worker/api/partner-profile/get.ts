import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { partnerNameOf } from "../../domain/workspaces/store";
import { partnerWorkspaceOf } from "../connections/shapes";
import { PartnerProfileSchema } from "./shapes";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/partner-profile",
  operationId: "getPartnerProfile",
  tags: ["Partners"],
  summary: "파트너 프로필",
  description: "파트너가 사업자에게 보이는 이름입니다. 파트너가 아닌 워크스페이스는 400 CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER입니다.",
  responses: {
    200: { description: "프로필", content: { "application/json": { schema: PartnerProfileSchema } } },
    ...errorResponses("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const id = partnerWorkspaceOf(c);
  return c.json({ id, name: await partnerNameOf(c.env.DB, id) }, 200);
};
