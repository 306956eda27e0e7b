import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { listSchedules } from "../../domain/schedules/store";
import { scheduleView } from "../../domain/schedules/view";
import { paged, PageQuerySchema } from "../../platform/http/paging";
import { SchedulePageSchema } from "./shapes";
import { businessScoped } from "../guards";

export const route = businessScoped(createRoute({
  method: "get",
  path: "/schedules",
  operationId: "listSchedules",
  tags: ["Schedules"],
  summary: "일정 목록",
  description: "최신 일정부터 돌려줍니다. 다음 페이지는 nextCursor를 cursor로 보내 받습니다.",
  request: { query: PageQuerySchema },
  responses: {
    200: { description: "일정 한 페이지", content: { "application/json": { schema: SchedulePageSchema } } },
    ...errorResponses("INVALID_CURSOR", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const query = c.req.valid("query");
  return c.json(await paged(c.env.CURSOR_SECRET, JSON.stringify(["schedules", workspaceId]), query, (after) => listSchedules(c.env.DB, workspaceId, query.limit, after), scheduleView), 200);
};
