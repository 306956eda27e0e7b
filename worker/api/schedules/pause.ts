import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { pauseSchedule } from "../../domain/schedules/manage";
import { scheduleView } from "../../domain/schedules/view";
import { ScheduleIdParamSchema, ScheduleSchema } from "./shapes";
import { managingBusiness } from "../guards";

export const route = managingBusiness("schedules.manage", createRoute({
  method: "post",
  path: "/schedules/{id}/pause",
  operationId: "pauseSchedule",
  tags: ["Schedules"],
  summary: "일정 일시 중지",
  description: "다음 실행부터 멈춥니다. 이미 만든 작업은 그대로 진행합니다. 멈춘 일정에 다시 보내도 그대로입니다.",
  request: { params: ScheduleIdParamSchema },
  responses: {
    200: { description: "멈춘 일정", content: { "application/json": { schema: ScheduleSchema } } },
    ...errorResponses("RESOURCE_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(scheduleView(await pauseSchedule(c.env, principalOf(c).workspaceId, c.req.valid("param").id)), 200);
