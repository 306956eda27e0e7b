import type { CreateDataJobRequest, DataJobListItem, ListJobsFilter } from "../../client/src/index";
import { noArgs, oneArg } from "../args";
import type { Command } from "../context";
import { EXIT, UsageError } from "../exit-codes";
import { exitFor, printJob, printJobList, waitShowingProgress } from "./job-output";

const JOB_STATUSES = ["PENDING", "RUNNING", "SUCCEEDED", "FAILED"] as const;

/** `--param dateRangeStart=2026-01-01` (repeatable) and/or `--params '{"...": ...}'`. */
export function paramsOf(pairs: string[], jsonText: string | undefined): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  if (jsonText !== undefined) {
    try {
      Object.assign(params, JSON.parse(jsonText));
    } catch {
      throw new UsageError("--params must be a JSON object");
    }
  }
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--param takes NAME=VALUE, not ${pair}`);
    params[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return params;
}

export const jobsCreate: Command = {
  usage: "jobs create --provider CODE --schema ID [--param NAME=VALUE ...] [--params JSON] [--credential ID | --connection ID] [--idempotency-key KEY] [--wait]",
  summary: "create a collection job (and with --wait, follow it to the end)",
  options: {
    provider: { type: "string" },
    schema: { type: "string" },
    param: { type: "string", multiple: true },
    params: { type: "string" },
    credential: { type: "string" },
    connection: { type: "string" },
    "idempotency-key": { type: "string" },
    wait: { type: "boolean" },
  },
  async run(ctx, { values, args }) {
    noArgs(args);
    if (!values.provider || !values.schema) throw new UsageError("--provider and --schema are required");
    const request: CreateDataJobRequest = {
      providerCode: values.provider as string,
      schema: values.schema as string,
      params: paramsOf((values.param as string[] | undefined) ?? [], values.params as string | undefined),
      credentialId: values.credential as string | undefined,
      connectionId: values.connection as string | undefined,
    };
    const client = ctx.client();
    const job = await client.createJob(request, { idempotencyKey: values["idempotency-key"] as string | undefined, signal: ctx.signal });
    if (!values.wait) {
      printJob(ctx, job);
      return EXIT.OK;
    }
    const finished = await waitShowingProgress(ctx, client, job);
    printJob(ctx, finished);
    return exitFor(finished);
  },
};

export const jobsList: Command = {
  usage: "jobs list [--status PENDING,RUNNING,SUCCEEDED,FAILED] [--schema ID ...] [--credential ID] [--limit N | --all]",
  summary: "list jobs, newest first",
  options: { status: { type: "string", multiple: true }, schema: { type: "string", multiple: true }, credential: { type: "string" }, limit: { type: "string" }, all: { type: "boolean" } },
  async run(ctx, { values, args }) {
    noArgs(args);
    const statuses = ((values.status as string[] | undefined) ?? []).flatMap((s) => s.split(",")).filter(Boolean);
    const unknown = statuses.find((s) => !(JOB_STATUSES as readonly string[]).includes(s));
    if (unknown) throw new UsageError(`--status takes ${JOB_STATUSES.join(", ")}, not ${unknown}`);
    const limit = values.all ? Infinity : Number(values.limit ?? 20);
    if (!(limit > 0) || (limit !== Infinity && !Number.isInteger(limit))) throw new UsageError("--limit takes a positive integer");
    const filter: ListJobsFilter = {
      status: statuses.length ? (statuses as ListJobsFilter["status"]) : undefined,
      schemas: values.schema as string[] | undefined,
      credentialId: values.credential as string | undefined,
      pageSize: Math.min(100, limit),
    };
    const jobs: DataJobListItem[] = [];
    for await (const job of ctx.client().listJobs(filter, { signal: ctx.signal })) {
      jobs.push(job);
      if (jobs.length >= limit) break;
    }
    printJobList(ctx, jobs);
    return EXIT.OK;
  },
};

export const jobsShow: Command = {
  usage: "jobs show JOB_ID",
  summary: "show one job",
  async run(ctx, { args }) {
    printJob(ctx, await ctx.client().getJob(oneArg(args, "JOB_ID"), { signal: ctx.signal }));
    return EXIT.OK;
  },
};

export const jobsWait: Command = {
  usage: "jobs wait JOB_ID",
  summary: "follow a job to Succeeded or Failed (exit 1 when it fails)",
  async run(ctx, { args }) {
    const job = await waitShowingProgress(ctx, ctx.client(), oneArg(args, "JOB_ID"));
    printJob(ctx, job);
    return exitFor(job);
  },
};
