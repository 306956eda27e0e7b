import { z } from "@hono/zod-openapi";
import { SCHEDULE_STATUSES } from "../../domain/schedules/tables";
import { code, count, pathId, timestamp, uuid } from "../../platform/http/bounds";
import { cron, incremental, lastDays, params } from "../../domain/schedules/inputs";

const MAX_REASON = 2000;
import { DataJobListItemSchema } from "../data-jobs/shapes";
import { MAX_PAGE, pageSchema } from "../../platform/http/paging";

export const ScheduleSchema = z
  .object({
    id: uuid(),
    providerCode: code(),
    schema: code(),
    credentialId: uuid().nullable(),
    deliveryRouteId: uuid().nullable().meta({ description: "확장 필드. 실행마다 성공한 결과를 보낼 전달 경로 (docs/operations.md)" }),
    cron,
    timeZone: z.literal("Asia/Seoul"),
    params,
    lastDays: lastDays.nullable(),
    incremental,
    status: z.enum(SCHEDULE_STATUSES).meta({ description: "ACTIVE: 실행 중, PAUSED: 일시 중지 (사람이, 또는 연속 실패로 서비스가)" }),
    pausedReason: z.string().max(MAX_REASON).nullable().meta({ description: "서비스가 일시 중지한 이유. 사람이 멈췄거나 실행 중이면 null" }),
    nextRunAt: timestamp().nullable().meta({ description: "다음 실행 시각. 일시 중지 중이면 null" }),
    consecutiveFailures: count().meta({ description: "재시도로 고칠 수 없는 실패가 연속된 횟수. 3이 되면 일시 중지하고 schedule.paused 이벤트를 보냅니다" }),
    skippedRuns: count().meta({ description: "앞선 실행이 아직 끝나지 않아 건너뛴 실행 시각의 수. 같은 수집을 겹쳐 실행하지 않습니다" }),
    lastSkippedFor: timestamp().nullable().meta({ description: "마지막으로 건너뛴 실행 시각. 건너뛴 적이 없으면 null" }),
    createdAt: timestamp(),
  })
  .openapi("Schedule");

export const SchedulePageSchema = pageSchema(ScheduleSchema, "SchedulePage");

export const ScheduleIdParamSchema = z.object({ id: pathId().meta({ param: { name: "id", in: "path" }, description: "일정 id (uuid)" }) });

export const ScheduleRunsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(20).meta({ description: "1-100, 기본 20", format: "int32" }),
});

const ScheduleRunSchema = z
  .intersection(DataJobListItemSchema, z.object({ scheduledFor: timestamp().meta({ description: "이 작업이 맡은 실행 시각 (한 시각에 작업 하나)" }) }))
  .openapi("ScheduleRun");

export const ScheduleRunsSchema = z
  .object({ items: z.array(ScheduleRunSchema).max(MAX_PAGE).meta({ description: "최근 실행부터. 각 실행은 보통의 작업입니다" }) })
  .openapi("ScheduleRuns");
