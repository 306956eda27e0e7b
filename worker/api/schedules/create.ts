import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { createSchedule } from "../../domain/schedules/manage";
import { scheduleView } from "../../domain/schedules/view";
import { ScheduleSchema } from "./shapes";
import { CreateScheduleBodySchema } from "../../domain/schedules/inputs";
import { managingBusiness } from "../guards";
import { LOGS_BODY } from "../request-log";

export const route = managingBusiness("schedules.manage", createRoute({
  method: "post",
  path: "/schedules",
  operationId: "createSchedule",
  tags: ["Schedules"],
  summary: "일정 만들기",
  description:
    "서비스가 cron(한국 시간)마다 작업을 하나씩 만듭니다. 각 실행은 보통의 작업이라 결과, 웹훅(data_job.succeeded/failed)이 같습니다. 한 실행 시각에는 작업이 하나뿐이며, 서비스가 멈췄던 동안 놓친 실행은 가장 최근 것 하나만 합니다. 앞선 실행이 아직 끝나지 않았으면 그 실행 시각은 건너뛰고 skippedRuns에 셉니다. 재시도로 고칠 수 없는 실패가 3번 이어지면 일시 중지하고 schedule.paused 이벤트를 보냅니다. 워크스페이스당 100개까지. 두 실행 사이는 15분 이상이어야 하고(아니면 400 INVALID_PARAM_FORMAT, body.cron), 자격 증명과 schema마다 실행 중인(ACTIVE) 일정은 하나입니다(400 INVALID_DATA_JOB_PARAMS; credentialId가 없는 일정은 그 기관의 기본 자격 증명 몫). 일정은 사람 없이 계속 기관에 로그인하므로 관리 권한이 있는 키만 만들고 바꿀 수 있습니다(403 ADMIN_ACTION_FORBIDDEN). 간편인증(SIMPLE_AUTH) 자격 증명의 일정은 실행할 때마다(포털 세션이 살아 있는 약 25분 안의 실행은 빼고) 주인의 휴대폰에 승인 요청이 가고 약 5분 안에 사람이 승인해야 합니다: 승인이 없으면 그 실행은 LOGIN_SECOND_FACTOR_REQUIRED(retryable=false)로 실패하고 3번 이어지면 일정이 일시 중지되니, 사람이 응답할 수 있는 시각을 cron으로 고르세요. 자세한 내용은 docs/scheduling.md",
  request: jsonBody(CreateScheduleBodySchema),
  responses: {
    201: { description: "만든 일정", content: { "application/json": { schema: ScheduleSchema } } },
    ...errorResponses("INVALID_PARAM_FORMAT", "MISSING_REQUIRED_PARAM", "INVALID_DATA_JOB_PARAMS", "INVALID_PROVIDER_CODE", "SCHEMA_NOT_FOUND", "ACTION_NOT_SUPPORTED", "DATE_RANGE_EXCEEDED", "DELIVERY_ROUTE_NOT_FOUND"),
  },
}), LOGS_BODY);

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(scheduleView(await createSchedule(c.env, principalOf(c).workspaceId, c.req.valid("json"))), 201);
