import type { CreateScheduleRequest, Schedule } from "../../client/src/index";
import { noArgs, oneArg } from "../args";
import type { Command } from "../context";
import { EXIT, UsageError } from "../exit-codes";
import { fields, json, table } from "../output";
import { paramsOf } from "./jobs";

const row = (s: Schedule) => ({ id: s.id, schema: s.schema, cron: s.cron, status: s.status, nextRunAt: s.nextRunAt ?? "-" });

function print(ctx: Parameters<Command["run"]>[0], schedule: Schedule): typeof EXIT.OK {
  ctx.out.write(ctx.json ? json(schedule) : fields({ ...row(schedule), lastDays: schedule.lastDays ?? "-", incremental: schedule.incremental, skippedRuns: schedule.skippedRuns, pausedReason: schedule.pausedReason ?? "-" }));
  return EXIT.OK;
}

export const schedulesCreate: Command = {
  usage: "schedules create --provider CODE --schema ID --cron 'M H D M W' [--last-days N] [--incremental] [--param NAME=VALUE ...] [--params JSON] [--credential ID]",
  summary: "have the service run a collection on a cron in Korean time, each run a normal job",
  options: {
    provider: { type: "string" },
    schema: { type: "string" },
    cron: { type: "string" },
    "last-days": { type: "string" },
    incremental: { type: "boolean" },
    param: { type: "string", multiple: true },
    params: { type: "string" },
    credential: { type: "string" },
  },
  async run(ctx, { values, args }) {
    noArgs(args);
    if (!values.provider || !values.schema || !values.cron) throw new UsageError("--provider, --schema and --cron are required");
    const lastDays = values["last-days"] === undefined ? undefined : Number(values["last-days"]);
    if (lastDays !== undefined && !Number.isInteger(lastDays)) throw new UsageError("--last-days takes a whole number of days");
    const request: CreateScheduleRequest = {
      providerCode: values.provider as string,
      schema: values.schema as string,
      cron: values.cron as string,
      lastDays,
      incremental: values.incremental as boolean | undefined,
      params: paramsOf((values.param as string[] | undefined) ?? [], values.params as string | undefined),
      credentialId: values.credential as string | undefined,
    };
    return print(ctx, await ctx.client().createSchedule(request, { signal: ctx.signal }));
  },
};

export const schedulesList: Command = {
  usage: "schedules list",
  summary: "the workspace's schedules, newest first",
  options: {},
  async run(ctx, { args }) {
    noArgs(args);
    const all: Schedule[] = [];
    for await (const schedule of ctx.client().listSchedules({ signal: ctx.signal })) all.push(schedule);
    ctx.out.write(ctx.json ? json(all) : table(all.map(row), ["id", "schema", "cron", "status", "nextRunAt"]));
    return EXIT.OK;
  },
};

/** show, pause, resume: one schedule by id, printed as it is afterwards. */
const onOne = (verb: string, summary: string, act: (client: ReturnType<Parameters<Command["run"]>[0]["client"]>, id: string, signal: AbortSignal) => Promise<Schedule>): Command => ({
  usage: `schedules ${verb} SCHEDULE_ID`,
  summary,
  options: {},
  async run(ctx, { args }) {
    return print(ctx, await act(ctx.client(), oneArg(args, "SCHEDULE_ID"), ctx.signal));
  },
});

export const schedulesShow = onOne("show", "one schedule: its cron, status, next run and why it was paused", (c, id, signal) => c.getSchedule(id, { signal }));
export const schedulesPause = onOne("pause", "stop running a schedule (jobs already made go on)", (c, id, signal) => c.pauseSchedule(id, { signal }));
export const schedulesResume = onOne("resume", "run a paused schedule again from its next time", (c, id, signal) => c.resumeSchedule(id, { signal }));

export const schedulesDelete: Command = {
  usage: "schedules delete SCHEDULE_ID",
  summary: "delete a schedule (its jobs stay)",
  options: {},
  async run(ctx, { args }) {
    await ctx.client().deleteSchedule(oneArg(args, "SCHEDULE_ID"), { signal: ctx.signal });
    if (!ctx.json) ctx.out.write("deleted\n");
    return EXIT.OK;
  },
};

export const schedulesRuns: Command = {
  usage: "schedules runs SCHEDULE_ID",
  summary: "a schedule's latest runs, newest first",
  options: {},
  async run(ctx, { args }) {
    const runs = await ctx.client().listScheduleRuns(oneArg(args, "SCHEDULE_ID"), { limit: 100, signal: ctx.signal });
    ctx.out.write(ctx.json ? json(runs) : table(runs.map((r) => ({ scheduledFor: r.scheduledFor, id: r.id, kind: r.kind })), ["scheduledFor", "id", "kind"]));
    return EXIT.OK;
  },
};
