import { findSchema } from "../catalog/schemas";
import { ApiError, fieldError } from "../../platform/errors/api-error";
import { type JobRequest, validateJobRequest } from "../catalog/job-request";
import { armSchedule } from "./alarm";
import { minimumIntervalMinutes, nextOccurrence, parseCron, shortIntervalMinutes, rollingRange } from "./cron";
import { usableRoute } from "../deliveries/store";
import { eventRecipients } from "../workspaces/recipients";
import { assertMayUseProvider } from "../workspaces/provider-access";
import { deleteSchedule, findSchedule, insertSchedule, isOneActiveConflict, MAX_SCHEDULES_PER_WORKSPACE, type ScheduleRow, setScheduleStatus } from "./store";

type ManageEnv = Pick<Env, "DB" | "SCHEDULE_ALARMS" | "SCHEDULE_MIN_INTERVAL_MINUTES">;

export interface ScheduleInput {
  providerCode: string;
  schema: string;
  credentialId?: string;
  cron: string;
  params?: Record<string, unknown>;
  lastDays?: number;
  incremental?: boolean;
  deliveryRouteId?: string;
}

/**
 * One ACTIVE schedule per credential and schema (the schedules table's partial unique indexes; a schedule naming no
 * credential holds the provider's default one): a second would only log in with the same credential again to collect
 * the same records. 400 INVALID_DATA_JOB_PARAMS, as the other limits on what a schedule asks for.
 */
const oneActiveOnly = (field?: string) => (err: unknown): never => {
  if (!isOneActiveConflict(err)) throw err;
  const message = "이 자격 증명으로 같은 데이터(schema)를 수집하는 실행 중인 일정이 이미 있습니다. 자격 증명과 schema마다 실행 중인 일정은 하나입니다. 기존 일정을 지우거나 일시 중지한 뒤 다시 시도해 주세요.";
  throw new ApiError("INVALID_DATA_JOB_PARAMS", { message, ...(field ? { fieldErrors: [fieldError(field, "INVALID_DATA_JOB_PARAMS", message)] } : {}) });
};

const notFound = () => new ApiError("RESOURCE_NOT_FOUND", { message: "일정을 찾을 수 없습니다." });

/**
 * Checks a schedule as its first run's job would be checked (provider, schema, params with a range of `lastDays`
 * ending today), so a schedule that could never run is refused now, not on its first night.
 */
function checkInput(input: ScheduleInput, floor: number, now: number): JobRequest {
  if (!parseCron(input.cron)) {
    throw new ApiError("INVALID_PARAM_FORMAT", { fieldErrors: [fieldError("body.cron", "INVALID_PARAM_FORMAT", "cron은 다섯 필드(분 시 일 월 요일)의 식이어야 합니다. 예: 0 3 * * *")] });
  }
  const short = shortIntervalMinutes(input.cron, floor, now);
  if (short !== null) {
    const message = `일정의 두 실행 사이는 ${floor}분 이상이어야 합니다. 이 cron은 ${short}분 만에 다시 실행됩니다. 예: */${floor} * * * * 또는 0 3 * * *`;
    throw new ApiError("INVALID_PARAM_FORMAT", { fieldErrors: [fieldError("body.cron", "INVALID_PARAM_FORMAT", message)] });
  }
  const dated = findSchema(input.schema)?.datedRange;
  if (dated && input.lastDays === undefined) throw new ApiError("MISSING_REQUIRED_PARAM", { fieldErrors: [fieldError("body.lastDays", "MISSING_REQUIRED_PARAM", "기간이 있는 schema의 일정에는 lastDays가 필요합니다.")] });
  if (!dated && (input.lastDays !== undefined || input.incremental)) {
    throw new ApiError("INVALID_DATA_JOB_PARAMS", { fieldErrors: [fieldError("body.lastDays", "INVALID_DATA_JOB_PARAMS", "lastDays와 incremental은 기간이 있는 schema에만 씁니다.")] });
  }
  const ruled = ["dateRangeStart", "dateRangeEnd", "since"].find((name) => input.params && name in input.params);
  if (ruled) {
    throw new ApiError("INVALID_DATA_JOB_PARAMS", { fieldErrors: [fieldError(`body.params.${ruled}`, "INVALID_DATA_JOB_PARAMS", "일정의 params에는 기간과 since를 넣지 않습니다. lastDays와 incremental로 정해 주세요.")] });
  }
  return validateJobRequest({ providerCode: input.providerCode, schema: input.schema, params: { ...input.params, ...(dated ? rollingRange(input.lastDays!, now) : {}) } });
}

/** A new ACTIVE schedule, its alarm set at its first occurrence. */
export async function createSchedule(env: ManageEnv, workspaceId: string, input: ScheduleInput, now = Date.now()): Promise<ScheduleRow> {
  const request = checkInput(input, minimumIntervalMinutes(env), now);
  await assertMayUseProvider(env.DB, workspaceId, request.provider);
  if (input.deliveryRouteId) await usableRoute(env.DB, input.deliveryRouteId, await eventRecipients(env.DB, workspaceId));
  const row = await insertSchedule(
    env.DB,
    {
      id: crypto.randomUUID(),
      workspaceId,
      providerCode: input.providerCode,
      schema: input.schema,
      credentialId: input.credentialId ?? null,
      cron: input.cron.trim(),
      params: input.params ?? {},
      lastDays: input.lastDays ?? null,
      incremental: input.incremental ?? false,
      deliveryRouteId: input.deliveryRouteId ?? null,
      nextRunAt: nextOccurrence(input.cron, now),
    },
    now,
  ).catch(oneActiveOnly(input.credentialId ? "body.credentialId" : "body.schema"));
  if (!row) throw new ApiError("INVALID_DATA_JOB_PARAMS", { message: `워크스페이스당 일정은 ${MAX_SCHEDULES_PER_WORKSPACE}개까지입니다. 쓰지 않는 일정을 지워 주세요.` });
  await armSchedule(env, row.id, row.nextRunAt);
  return row;
}

export async function ownSchedule(env: ManageEnv, workspaceId: string, id: string): Promise<ScheduleRow> {
  const row = await findSchedule(env.DB, workspaceId, id);
  if (!row) throw notFound();
  return row;
}

/** Pauses a schedule (its alarm cleared); pausing a paused one changes nothing. */
export async function pauseSchedule(env: ManageEnv, workspaceId: string, id: string, now = Date.now()): Promise<ScheduleRow> {
  const row = await ownSchedule(env, workspaceId, id);
  const paused = await setScheduleStatus(env.DB, row.id, { status: "PAUSED", pausedReason: null }, now);
  if (paused) await armSchedule(env, row.id, null);
  return paused ?? (await ownSchedule(env, workspaceId, id));
}

/** Resumes from the next occurrence after now (none missed while paused is run), its count of failures reset. */
export async function resumeSchedule(env: ManageEnv, workspaceId: string, id: string, now = Date.now()): Promise<ScheduleRow> {
  const row = await ownSchedule(env, workspaceId, id);
  const resumed = await setScheduleStatus(env.DB, row.id, { status: "ACTIVE", nextRunAt: nextOccurrence(row.cron, now) }, now).catch(oneActiveOnly());
  if (resumed) await armSchedule(env, row.id, resumed.nextRunAt);
  return resumed ?? (await ownSchedule(env, workspaceId, id));
}

/** Deletes a schedule and its alarm; its runs stay, as jobs. */
export async function removeSchedule(env: ManageEnv, workspaceId: string, id: string): Promise<void> {
  if (!(await deleteSchedule(env.DB, workspaceId, id))) throw notFound();
  await armSchedule(env, id, null);
}
