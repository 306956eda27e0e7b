import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { actorOf, type AdminApiEnv } from "../../context";
import { errorResponses } from "../../../platform/http/error-responses";
import { readFailureReport } from "../../../domain/operators/actions";
import { MAX_REPORT_HTML_CHARS } from "../../../../contracts/scraper-protocol";
import { IdParamSchema } from "../shapes";
import { ReportSchema, reportView } from "./shapes";
import { operating } from "../guards";

export const route = operating("reports.read", createRoute({
  method: "get",
  path: "/reports/{id}",
  operationId: "getFailureReport",
  tags: ["Failure reports"],
  summary: "실패 보고서 읽기",
  description:
    "보고서와 그 페이지: 개인정보(이름, 계좌·카드·주민등록번호, 금액은 모양만)를 기관별 규칙으로 가린 HTML과 JPEG 화면(base64). 본 사실은 감사 기록에 남습니다. 없는 보고서는 404 AGENT_BUG_REPORT_NOT_FOUND입니다.",
  request: { params: IdParamSchema },
  responses: {
    200: {
      description: "보고서",
      content: {
        "application/json": {
          schema: z
            .object({
              report: ReportSchema,
              page: z.object({ html: z.string().max(MAX_REPORT_HTML_CHARS + 100).nullable(), screenshot: z.string().max(4 * 1024 * 1024).nullable() }).nullable(),
            })
            .openapi("FailureReportDetail"),
        },
      },
    },
    ...errorResponses("AGENT_BUG_REPORT_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const { report, page } = await readFailureReport(c.env, actorOf(c), c.req.valid("param").id);
  return c.json({ report: reportView(report), page }, 200);
};
