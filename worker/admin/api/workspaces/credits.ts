import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { grantUsageCredit } from "../../../domain/operators/actions";
import { actorOf, type AdminApiEnv } from "../../context";
import { errorResponses } from "../../../platform/http/error-responses";
import { count, timestamp, uuid } from "../../../platform/http/bounds";
import { jsonBody } from "../../../platform/http/json-body";
import { isoTime } from "../../../platform/lib/iso-time";
import { FreshCodeSchema, IdParamSchema, ReasonSchema } from "../shapes";
import { operating } from "../guards";

const UsageCreditSchema = z
  .object({ id: uuid(), workspaceId: uuid(), amount: count().meta({ description: "원" }), remaining: count().meta({ description: "아직 쓰지 않은 원" }), expiresAt: timestamp(), reason: z.string().max(500), createdAt: timestamp() })
  .openapi("UsageCredit");

export const route = operating("workspaces.credit", createRoute({
  method: "post",
  path: "/workspaces/{id}/credits",
  operationId: "grantUsageCredit",
  tags: ["Workspaces"],
  summary: "사용 크레딧 주기",
  description:
    "워크스페이스의 청구서에 카드 결제보다 먼저 쓰이는 크레딧(원)을 만료 시각과 함께 줍니다. 금액이 1원에서 1,000만 원 사이의 정수가 아니면 400 INVALID_USAGE_CREDIT, 만료가 지금보다 앞이면 400 USAGE_CREDIT_EXPIRES_IN_PAST, 청구서를 받지 않는 워크스페이스(INTERNAL, 파트너가 대신 결제하는 사업자)면 400 USAGE_CREDIT_NOT_APPLICABLE입니다. 돈이 움직이는 작업이라 인증 앱의 새 코드(code)가 필요하며, 없거나 틀렸거나 이미 쓴 코드는 401 INVALID_CREDENTIALS이고 로그인 실패처럼 계정 잠금에 셉니다. 감사 기록에 남습니다.",
  request: {
    params: IdParamSchema,
    // The amount is any number here so that a wrong one gets the catalog's own code, INVALID_USAGE_CREDIT.
    ...jsonBody(z.object({ amount: z.number().min(-1e12).max(1e12), expiresAt: timestamp(), reason: ReasonSchema, code: FreshCodeSchema }).openapi("AdminUsageCreditGrant")),
  },
  responses: {
    201: { description: "준 크레딧", content: { "application/json": { schema: UsageCreditSchema } } },
    ...errorResponses("WORKSPACE_NOT_FOUND", "INVALID_USAGE_CREDIT", "USAGE_CREDIT_EXPIRES_IN_PAST", "USAGE_CREDIT_NOT_APPLICABLE", "INVALID_CREDENTIALS", "TOO_MANY_LOGIN_ATTEMPTS"),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const { amount, expiresAt, reason, code } = c.req.valid("json");
  const credit = await grantUsageCredit(c.env, actorOf(c), c.req.valid("param").id, { amount, expiresAt: Date.parse(expiresAt), reason }, code);
  return c.json({ ...credit, expiresAt: isoTime(credit.expiresAt), createdAt: isoTime(credit.createdAt) }, 201);
};
