import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as createSchedule from "./create";
import * as listSchedules from "./list";
import * as getSchedule from "./get";
import * as pauseSchedule from "./pause";
import * as resumeSchedule from "./resume";
import * as deleteSchedule from "./delete";
import * as listScheduleRuns from "./runs";

/** Schedules are a business's like its jobs: a partner names the business as it does for jobs. */
export function registerScheduleRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(createSchedule.route, createSchedule.handler);
  api.openapi(listSchedules.route, listSchedules.handler);
  api.openapi(getSchedule.route, getSchedule.handler);
  api.openapi(pauseSchedule.route, pauseSchedule.handler);
  api.openapi(resumeSchedule.route, resumeSchedule.handler);
  api.openapi(deleteSchedule.route, deleteSchedule.handler);
  api.openapi(listScheduleRuns.route, listScheduleRuns.handler);
}
