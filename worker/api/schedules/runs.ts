import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { scheduleRuns } from "../../domain/jobs/store";
import { jobListItem } from "../../domain/jobs/views";
import { ownSchedule } from "../../domain/schedules/manage";
import { ScheduleIdParamSchema, ScheduleRunsQuerySchema, ScheduleRunsSchema } from "./shapes";
import { businessScoped } from "../guards";

export const route = businessScoped(createRoute({
  method: "get",
  path: "/schedules/{id}/runs",
  operationId: "listScheduleRuns",
  tags: ["Schedules"],
  summary: "일정의 실행 목록",
  description: "최근 실행(작업)부터 limit개. 각 작업은 GET /data-jobs/{id}로 자세히 봅니다.",
  request: { params: ScheduleIdParamSchema, query: ScheduleRunsQuerySchema },
  responses: {
    200: { description: "실행 목록", content: { "application/json": { schema: ScheduleRunsSchema } } },
    ...errorResponses("RESOURCE_NOT_FOUND", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const schedule = await ownSchedule(c.env, principalOf(c).workspaceId, c.req.valid("param").id);
  const runs = await scheduleRuns(c.env.DB, schedule.id, c.req.valid("query").limit);
  return c.json({ items: runs.map((job) => ({ ...jobListItem(job), scheduledFor: new Date(job.scheduledFor!).toISOString() })) }, 200);
};
