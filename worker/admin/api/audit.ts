import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { AdminApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { code, MAX, pathId, timestamp } from "../../platform/http/bounds";
import { isoTime } from "../../platform/lib/iso-time";
import { type AuditLine, auditLines } from "../../domain/operators/audit";
import { paged, PageQuerySchema, pageSchema } from "../../platform/http/paging";
import { behind } from "../../platform/http/route-fronts";
import { OPERATOR_SESSION, operatorsMay } from "./authenticate";

const AuditLineSchema = z
  .object({
    id: pathId(),
    at: timestamp(),
    operatorId: pathId(),
    operatorEmail: z.string().max(254),
    action: code(),
    targetKind: code(),
    targetId: pathId(),
    reason: z.string().max(500).nullable(),
    detail: z.record(z.string(), z.unknown()).nullable(),
    requestId: z.string().max(MAX.id),
  })
  .openapi("AuditLine");

export const route = behind(createRoute({
  method: "get",
  path: "/audit",
  operationId: "listAuditLines",
  tags: ["Audit"],
  summary: "감사 기록",
  description:
    "운영자가 한 일과 본 것, 최신 것부터. 작업마다 그 작업이 효력을 갖기 전에 쓰인 줄이 있고, 줄은 고치거나 지울 수 없습니다 (데이터베이스 트리거가 막습니다). 대상이나 운영자로 좁힐 수 있습니다.",
  request: {
    query: PageQuerySchema.extend({
      targetKind: code().optional().meta({ description: "workspace, job, provider, outage, operator, query" }),
      targetId: pathId().optional(),
      operatorId: pathId().optional(),
    }),
  },
  responses: {
    200: { description: "감사 기록 한 페이지", content: { "application/json": { schema: pageSchema(AuditLineSchema, "AuditLinePage") } } },
    ...errorResponses("INVALID_CURSOR"),
  },
}), OPERATOR_SESSION, operatorsMay("audit.read"));

const lineView = (line: AuditLine) => ({
  id: line.id,
  at: isoTime(line.createdAt),
  operatorId: line.operatorId,
  operatorEmail: line.operatorEmail,
  action: line.action,
  targetKind: line.targetKind,
  targetId: line.targetId,
  reason: line.reason,
  detail: line.detail,
  requestId: line.requestId,
});

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const { cursor, limit, ...filter } = c.req.valid("query");
  // The cursor is bound to the filter: a page of one target's lines cannot continue another's.
  const scope = JSON.stringify(["audit", filter.targetKind ?? null, filter.targetId ?? null, filter.operatorId ?? null]);
  return c.json(await paged(c.env.CURSOR_SECRET, scope, { cursor, limit }, (after) => auditLines(c.env.DB, { ...filter, after, limit }), lineView), 200);
};
