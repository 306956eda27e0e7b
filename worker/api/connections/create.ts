import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { BUSINESS_NUMBER_INPUT_MAX } from "../../domain/partners/business-number";
import type { ApiEnv } from "../context";
import { parseBusinessNumber } from "../../domain/partners/business-number";
import { connect } from "../../domain/partners/connections";
import { connectionView } from "./views";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { ConnectionSchema, partnerWorkspaceOf } from "./shapes";
import { managing } from "../guards";
import { LOGS_BODY } from "../request-log";

export const route = managing("connections.manage", createRoute({
  method: "post",
  path: "/connections",
  operationId: "createConnection",
  tags: ["Partners"],
  summary: "사업자 연결",
  description:
    "파트너 워크스페이스가 한 사업자를 대신해 일하도록 연결합니다. 이후 그 사업자의 작업, 자격 증명, 등록 세션은 X-SVC-Business 헤더로 사업자를 골라 호출합니다. 이미 연결된 사업자면 그 연결을 200으로 돌려줍니다. 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다.",
  request: jsonBody(z.object({ businessNumber: z.string().max(BUSINESS_NUMBER_INPUT_MAX).meta({ example: "120-88-00767", description: "사업자등록번호 (하이픈 선택)" }) })),
  responses: {
    201: { description: "새 연결", content: { "application/json": { schema: ConnectionSchema } } },
    200: { description: "이미 있는 연결", content: { "application/json": { schema: ConnectionSchema } } },
    ...errorResponses("MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "INVALID_BUSINESS_REGISTRATION_NUMBER", "CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", "ADMIN_ACTION_FORBIDDEN"),
  },
}), LOGS_BODY);

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const partner = partnerWorkspaceOf(c);
  const { row, created } = await connect(c.env.DB, partner, parseBusinessNumber(c.req.valid("json").businessNumber, "body.businessNumber"));
  return c.json(connectionView(row), created ? 201 : 200);
};
