import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { actorOf, type AdminApiEnv } from "../../context";
import { errorResponses } from "../../../platform/http/error-responses";
import { listFailureReports, REPORTS_SHOWN } from "../../../domain/operators/actions";
import { ReportSchema, reportView } from "./shapes";
import { operating } from "../guards";

export const route = operating("reports.read", createRoute({
  method: "get",
  path: "/reports",
  operationId: "listFailureReports",
  tags: ["Failure reports"],
  summary: "스크래퍼 실패 보고서",
  description:
    "어댑터가 읽지 못한 페이지의 보고서, 열린 것부터 최근 100개. 같은 기관, 종류, 단계, 어댑터 버전은 닫힐 때까지 보고서 하나에 발생 수가 쌓입니다. 본 사실은 보여 준 보고서와 함께 감사 기록(report.list)에 남습니다.",
  responses: {
    200: { description: "보고서", content: { "application/json": { schema: z.object({ items: z.array(ReportSchema).max(REPORTS_SHOWN) }).openapi("FailureReportList") } } },
    ...errorResponses(),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => c.json({ items: (await listFailureReports(c.env, actorOf(c))).map(reportView) }, 200);
