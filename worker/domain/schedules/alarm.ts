
export type AlarmsEnv = Pick<Env, "SCHEDULE_ALARMS">;

/** Sets the schedule's alarm to its next occurrence, or clears it (null) while it is paused or gone. */
export async function armSchedule(env: AlarmsEnv, scheduleId: string, at: number | null): Promise<void> {
  await env.SCHEDULE_ALARMS.get(env.SCHEDULE_ALARMS.idFromName(scheduleId)).arm(scheduleId, at);
}
