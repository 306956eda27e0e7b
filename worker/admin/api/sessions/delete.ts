import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type AdminApiEnv, operatorOf } from "../../context";
import { OPERATOR_SESSION } from "../authenticate";
import { closeOperatorSession } from "../../../domain/operators/store";
import { behind } from "../../../platform/http/route-fronts";

export const route = behind(createRoute({
  method: "delete",
  path: "/sessions/current",
  operationId: "signOutOperator",
  tags: ["Operator sessions"],
  summary: "운영자 로그아웃",
  description: "이 토큰은 곧바로 쓸 수 없게 됩니다.",
  responses: { 204: { description: "로그아웃했습니다" } },
}), OPERATOR_SESSION);

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  await closeOperatorSession(c.env.DB, operatorOf(c).tokenHash);
  return c.body(null, 204);
};
