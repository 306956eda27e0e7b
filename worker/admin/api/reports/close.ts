import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { actorOf, type AdminApiEnv } from "../../context";
import { errorResponses } from "../../../platform/http/error-responses";
import { jsonBody } from "../../../platform/http/json-body";
import { closeFailureReport } from "../../../domain/operators/actions";
import { IdParamSchema, ReasonSchema } from "../shapes";
import { FixRefSchema, ReportSchema, reportView } from "./shapes";
import { operating } from "../guards";

export const route = operating("reports.close", createRoute({
  method: "post",
  path: "/reports/{id}/close",
  operationId: "closeFailureReport",
  tags: ["Failure reports"],
  summary: "실패 보고서 닫기",
  description: "고친 어댑터 변경(fixRef)을 남기고 닫습니다. 같은 실패가 다시 나면 새 보고서가 열립니다. 없거나 이미 닫힌 보고서는 404 AGENT_BUG_REPORT_NOT_FOUND입니다.",
  request: { params: IdParamSchema, ...jsonBody(z.object({ fixRef: FixRefSchema, reason: ReasonSchema }).openapi("FailureReportClose")) },
  responses: {
    200: { description: "닫은 보고서", content: { "application/json": { schema: ReportSchema } } },
    ...errorResponses("AGENT_BUG_REPORT_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const { fixRef, reason } = c.req.valid("json");
  return c.json(reportView(await closeFailureReport(c.env, actorOf(c), c.req.valid("param").id, fixRef, reason)), 200);
};
