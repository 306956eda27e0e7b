import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { resumeSchedule } from "../../domain/schedules/manage";
import { scheduleView } from "../../domain/schedules/view";
import { ScheduleIdParamSchema, ScheduleSchema } from "./shapes";
import { managingBusiness } from "../guards";

export const route = managingBusiness("schedules.manage", createRoute({
  method: "post",
  path: "/schedules/{id}/resume",
  operationId: "resumeSchedule",
  tags: ["Schedules"],
  summary: "일정 다시 시작",
  description: "지금 다음의 실행 시각부터 다시 실행합니다 (멈춘 동안의 실행은 하지 않습니다). 연속 실패 횟수는 0이 됩니다. 같은 자격 증명과 schema의 다른 일정이 실행 중이면 400 INVALID_DATA_JOB_PARAMS입니다.",
  request: { params: ScheduleIdParamSchema },
  responses: {
    200: { description: "다시 시작한 일정", content: { "application/json": { schema: ScheduleSchema } } },
    ...errorResponses("RESOURCE_NOT_FOUND", "INVALID_DATA_JOB_PARAMS"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(scheduleView(await resumeSchedule(c.env, principalOf(c).workspaceId, c.req.valid("param").id)), 200);
