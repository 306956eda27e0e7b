import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { ownSchedule } from "../../domain/schedules/manage";
import { scheduleView } from "../../domain/schedules/view";
import { ScheduleIdParamSchema, ScheduleSchema } from "./shapes";
import { businessScoped } from "../guards";

export const route = businessScoped(createRoute({
  method: "get",
  path: "/schedules/{id}",
  operationId: "getSchedule",
  tags: ["Schedules"],
  summary: "일정 조회",
  description: "다른 워크스페이스의 일정은 없는 것과 같이 404 RESOURCE_NOT_FOUND입니다.",
  request: { params: ScheduleIdParamSchema },
  responses: {
    200: { description: "일정", content: { "application/json": { schema: ScheduleSchema } } },
    ...errorResponses("RESOURCE_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(scheduleView(await ownSchedule(c.env, principalOf(c).workspaceId, c.req.valid("param").id)), 200);
