import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { SCHEMA_IDS } from "../../domain/catalog/schemas";
import { JOB_STATUSES } from "../../domain/jobs/tables";
import { type ApiEnv, principalOf } from "../context";
import { listJobs } from "../../domain/jobs/store";
import { jobListItem } from "../../domain/jobs/views";
import { DataJobPageSchema } from "./shapes";
import { errorResponses } from "../../platform/http/error-responses";
import { cursor, MAX, uuid } from "../../platform/http/bounds";
import { paged } from "../../platform/http/paging";
import { businessScoped } from "../guards";

/** Repeated (`?a=x&a=y`) and comma-separated (`?a=x,y`) forms both work; at most `max` values in all. */
const listParam = <T extends z.ZodType>(item: T, max: number) =>
  z.preprocess((v) => (v === undefined ? undefined : [v].flat().flatMap((s) => String(s).split(",")).filter(Boolean)), z.array(item).max(max).optional());

/** Every status once, comma-separated, is the longest sensible `status`. */
const MAX_STATUS_LENGTH = JOB_STATUSES.length * (Math.max(...JOB_STATUSES.map((s) => s.length)) + 1);

export const route = businessScoped(createRoute({
  method: "get",
  path: "/data-jobs",
  operationId: "listDataJobs",
  tags: ["Data jobs"],
  summary: "수집 작업 목록",
  description: "최신 작업부터 돌려줍니다. 다음 페이지는 nextCursor를 그대로 cursor로 보내 받습니다. 커서는 발급 당시의 필터에 묶여 있습니다.",
  request: {
    query: z.object({
      cursor: cursor().optional().meta({ description: "이전 응답의 nextCursor" }),
      limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: "1-100, 기본 20", format: "int32" }),
      status: listParam(z.enum(JOB_STATUSES), JOB_STATUSES.length).meta({
        description: `상태 필터. PENDING(대기), RUNNING(수집 중), SUCCEEDED, FAILED 중 하나 이상, 쉼표로 구분하거나 반복 (모두 합쳐 ${JOB_STATUSES.length}개까지)`,
        type: "string",
        maxLength: MAX_STATUS_LENGTH,
      }),
      actionCodes: listParam(z.enum(SCHEMA_IDS as [string, ...string[]]), SCHEMA_IDS.length).meta({
        description: "작업의 스키마 식별자(액션) 필터. 예: bank.transactions.cb.v1",
        type: "array",
        items: { type: "string", maxLength: MAX.code },
        maxItems: SCHEMA_IDS.length,
      }),
      credentialId: uuid().optional().meta({ description: "이 자격 증명으로 로그인하는(한) 작업만" }),
    }),
  },
  responses: {
    200: { description: "작업 한 페이지", content: { "application/json": { schema: DataJobPageSchema } } },
    ...errorResponses("INVALID_CURSOR", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const query = c.req.valid("query");
  const scope = JSON.stringify([workspaceId, query.status ?? [], query.actionCodes ?? [], query.credentialId ?? null]);
  const page = await paged(
    c.env.CURSOR_SECRET,
    scope,
    query,
    (after) => listJobs(c.env.DB, { workspaceId, limit: query.limit, after, statuses: query.status, schemas: query.actionCodes, credentialId: query.credentialId }),
    jobListItem,
  );
  return c.json(page, 200);
};
