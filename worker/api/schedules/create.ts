import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { createSchedule } from "../../domain/schedules/manage";
import { scheduleView } from "../../domain/schedules/view";
import { ScheduleSchema } from "./shapes";
import { CreateScheduleBodySchema } from "../../domain/schedules/inputs";
import { businessScoped } from "../guards";

export const route = businessScoped(createRoute({
  method: "post",
  path: "/schedules",
  operationId: "createSchedule",
  tags: ["Schedules"],
  summary: "일정 만들기",
  description:
    "서비스가 cron(한국 시간)마다 작업을 하나씩 만듭니다. 각 실행은 보통의 작업이라 결과, 웹훅(data_job.succeeded/failed)이 같습니다. 한 실행 시각에는 작업이 하나뿐이며, 서비스가 멈췄던 동안 놓친 실행은 가장 최근 것 하나만 합니다. 앞선 실행이 아직 끝나지 않았으면 그 실행 시각은 건너뛰고 skippedRuns에 셉니다. 재시도로 고칠 수 없는 실패가 3번 이어지면 일시 중지하고 schedule.paused 이벤트를 보냅니다. 워크스페이스당 100개까지. 자세한 내용은 docs/scheduling.md",
  request: jsonBody(CreateScheduleBodySchema),
  responses: {
    201: { description: "만든 일정", content: { "application/json": { schema: ScheduleSchema } } },
    ...errorResponses("INVALID_PARAM_FORMAT", "MISSING_REQUIRED_PARAM", "INVALID_DATA_JOB_PARAMS", "INVALID_PROVIDER_CODE", "SCHEMA_NOT_FOUND", "ACTION_NOT_SUPPORTED", "DATE_RANGE_EXCEEDED", "DELIVERY_ROUTE_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(scheduleView(await createSchedule(c.env, principalOf(c).workspaceId, c.req.valid("json"))), 201);
