import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { removeSchedule } from "../../domain/schedules/manage";
import { ScheduleIdParamSchema } from "./shapes";
import { managingBusiness } from "../guards";

export const route = managingBusiness("schedules.manage", createRoute({
  method: "delete",
  path: "/schedules/{id}",
  operationId: "deleteSchedule",
  tags: ["Schedules"],
  summary: "일정 삭제",
  description: "더는 실행하지 않습니다. 이미 만든 작업과 그 결과는 남습니다.",
  request: { params: ScheduleIdParamSchema },
  responses: {
    204: { description: "삭제했습니다" },
    ...errorResponses("RESOURCE_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  await removeSchedule(c.env, principalOf(c).workspaceId, c.req.valid("param").id);
  return c.body(null, 204);
};
