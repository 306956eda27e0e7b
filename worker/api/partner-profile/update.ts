import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { parsePartnerName } from "../../domain/partners/name";
import { setPartnerName } from "../../domain/workspaces/store";
import { partnerWorkspaceOf } from "../connections/shapes";
import { PartnerProfileSchema } from "./shapes";
import { managing } from "../guards";
import { LOGS_BODY } from "../request-log";

export const route = managing("connections.manage", createRoute({
  method: "patch",
  path: "/partner-profile",
  operationId: "updatePartnerProfile",
  tags: ["Partners"],
  summary: "파트너 이름 정하기",
  description:
    "사업자에게 보이는 이름(등록 화면, 사업자의 GET /partners)을 정합니다. 2-50자의 글자, 숫자, 공백과 ()&.,·'_-로 쓰고 글자를 하나 이상 넣으며, 웹 주소는 넣을 수 없습니다(400 PARTNER_NAME_INVALID). 관리 권한이 있는 키만 부를 수 있습니다.",
  request: jsonBody(z.object({ name: z.string().max(200).meta({ example: "(주)경리나라" }) })),
  responses: {
    200: { description: "바뀐 프로필", content: { "application/json": { schema: PartnerProfileSchema } } },
    ...errorResponses("PARTNER_NAME_INVALID", "MISSING_REQUIRED_PARAM", "CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", "ADMIN_ACTION_FORBIDDEN", "INVALID_PARAM_FORMAT"),
  },
}), LOGS_BODY);

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const id = partnerWorkspaceOf(c);
  const name = parsePartnerName(c.req.valid("json").name);
  await setPartnerName(c.env.DB, id, name);
  return c.json({ id, name }, 200);
};
