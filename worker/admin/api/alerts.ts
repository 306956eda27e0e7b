import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { type AlertRow, latestAlerts } from "../../domain/alerts/store";
import type { AdminApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { code, count, MAX, pathId, timestamp } from "../../platform/http/bounds";
import { isoTime, isoTimeOrNull } from "../../platform/lib/iso-time";
import { behind } from "../../platform/http/route-fronts";
import { OPERATOR_SESSION, operatorsMay } from "./authenticate";

export const ALERTS_SHOWN = 100;

const AlertSchema = z
  .object({
    id: pathId(),
    code: code(),
    providerCode: code().meta({ description: "발생한 기관. 기관과 무관한 API 요청의 오류는 -" }),
    threshold: count(),
    windowSeconds: count(),
    occurrences: count().meta({ description: "열린 뒤 센 발생 수 (열려 있는 동안 최대 1분 늦게 반영)" }),
    example: z.string().max(MAX.text).meta({ description: "처음 기준을 넘긴 발생 하나: 요청 id(req_…) 또는 job <id>" }),
    openedAt: timestamp(),
    lastSeenAt: timestamp(),
    resolvedAt: timestamp().nullable(),
  })
  .openapi("OperatorAlert");

export const route = behind(createRoute({
  method: "get",
  path: "/alerts",
  operationId: "listOperatorAlerts",
  tags: ["Alerts"],
  summary: "운영 알림",
  description: "표시(*)된 오류 코드가 기관별로 기준 횟수를 넘어 열린 알림, 열린 것부터 최근 100개. 같은 코드와 기관은 해소될 때까지 알림 하나입니다 (docs/operations.md).",
  responses: {
    200: { description: "알림", content: { "application/json": { schema: z.object({ items: z.array(AlertSchema).max(ALERTS_SHOWN) }).openapi("OperatorAlertList") } } },
    ...errorResponses(),
  },
}), OPERATOR_SESSION, operatorsMay("alerts.read"));

export const alertView = (a: AlertRow) => ({
  id: a.id,
  code: a.code,
  providerCode: a.providerCode,
  threshold: a.threshold,
  windowSeconds: a.windowMs / 1000,
  occurrences: a.occurrences,
  example: a.example,
  openedAt: isoTime(a.openedAt),
  lastSeenAt: isoTime(a.lastSeenAt),
  resolvedAt: isoTimeOrNull(a.resolvedAt),
});

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => c.json({ items: (await latestAlerts(c.env.DB, ALERTS_SHOWN)).map(alertView) }, 200);
