import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../../env";
import { errorResponses } from "../../../platform/http/error-responses";
import { latestReports } from "../../../domain/reports/store";
import { ReportSchema, reportView } from "./shapes";
import { behind } from "../../../platform/http/route-fronts";
import { OPERATOR_SESSION, operatorsMay } from "../../../domain/operators/authenticate";

export const REPORTS_SHOWN = 100;

export const route = behind(createRoute({
  method: "get",
  path: "/reports",
  operationId: "listFailureReports",
  tags: ["Failure reports"],
  summary: "스크래퍼 실패 보고서",
  description: "어댑터가 읽지 못한 페이지의 보고서, 열린 것부터 최근 100개. 같은 기관, 종류, 단계, 어댑터 버전은 닫힐 때까지 보고서 하나에 발생 수가 쌓입니다.",
  responses: {
    200: { description: "보고서", content: { "application/json": { schema: z.object({ items: z.array(ReportSchema).max(REPORTS_SHOWN) }).openapi("FailureReportList") } } },
    ...errorResponses(),
  },
}), OPERATOR_SESSION, operatorsMay("reports.read"));

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => c.json({ items: (await latestReports(c.env.DB, REPORTS_SHOWN)).map(reportView) }, 200);
