import { parseArgs, type ParseArgsConfig } from "node:util";
import { CollectApiError, JobWaitTimeoutError } from "../client/src/index";
import { checkCredentialCommand } from "./commands/check-credential";
import { jobsCreate, jobsList, jobsShow, jobsWait } from "./commands/jobs";
import { linksCreate } from "./commands/links";
import { login, logout } from "./commands/login";
import { results } from "./commands/results";
import { schedulesCreate, schedulesDelete, schedulesList, schedulesPause, schedulesResume, schedulesRuns, schedulesShow } from "./commands/schedules";
import { webhooksListen } from "./commands/webhooks";
import { type Command, createContext } from "./context";
import { EXIT, type ExitCode, NotLoggedInError, UsageError } from "./exit-codes";

/** Options every command takes. */
const GLOBAL_OPTIONS: NonNullable<ParseArgsConfig["options"]> = {
  "base-url": { type: "string" },
  business: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
};


const COMMANDS: Record<string, Command> = {
  login,
  logout,
  "jobs create": jobsCreate,
  "jobs list": jobsList,
  "jobs show": jobsShow,
  "jobs wait": jobsWait,
  results,
  "links create": linksCreate,
  "schedules create": schedulesCreate,
  "schedules list": schedulesList,
  "schedules show": schedulesShow,
  "schedules pause": schedulesPause,
  "schedules resume": schedulesResume,
  "schedules runs": schedulesRuns,
  "schedules delete": schedulesDelete,
  "check-credential": checkCredentialCommand,
  "webhooks listen": webhooksListen,
};

export function usage(): string {
  const lines = Object.values(COMMANDS).map((c) => `  collect ${c.usage}\n      ${c.summary}`);
  return `Usage:\n${lines.join("\n")}\n\nEvery command takes --json (output for scripts), --base-url URL and --business NUMBER (partner workspaces).\nExit codes: 0 ok, 1 job failed or check did not pass, 2 usage, 3 API error, 4 not logged in, 5 wait timed out, 130 interrupted.\n`;
}

function findCommand(argv: string[]): { command: Command; rest: string[] } | undefined {
  const two = COMMANDS[`${argv[0]} ${argv[1]}`];
  if (two) return { command: two, rest: argv.slice(2) };
  const one = argv[0] === undefined ? undefined : COMMANDS[argv[0]];
  return one && { command: one, rest: argv.slice(1) };
}

export interface Io {
  out: NodeJS.WritableStream & { isTTY?: boolean };
  err: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

export async function main(argv: string[], io: Io): Promise<ExitCode> {
  const found = findCommand(argv);
  if (!found) {
    const asked = argv.length === 0 || argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help";
    (asked ? io.out : io.err).write(asked ? usage() : `unknown command: ${argv.slice(0, 2).join(" ")}\n\n${usage()}`);
    return asked ? EXIT.OK : EXIT.USAGE;
  }
  const { command, rest } = found;
  let json = false;
  try {
    const { values, positionals } = parseArgs({ args: rest, options: { ...GLOBAL_OPTIONS, ...command.options }, allowPositionals: true, strict: true });
    if (values.help) {
      io.out.write(`collect ${command.usage}\n  ${command.summary}\n`);
      return EXIT.OK;
    }
    json = values.json === true;
    const ctx = await createContext({ baseUrl: values["base-url"] as string | undefined, business: values.business as string | undefined, json, ...io });
    return await command.run(ctx, { values, args: positionals });
  } catch (err) {
    return reportFailure(err, command, json, io);
  }
}

function reportFailure(err: unknown, command: Command, json: boolean, io: Io): ExitCode {
  if (io.signal.aborted) return EXIT.INTERRUPTED;
  if (err instanceof UsageError || String((err as NodeJS.ErrnoException)?.code).startsWith("ERR_PARSE_ARGS")) {
    io.err.write(`${(err as Error).message}\nusage: collect ${command.usage}\n`);
    return EXIT.USAGE;
  }
  if (err instanceof NotLoggedInError) {
    io.err.write(`${err.message}\n`);
    return EXIT.NOT_LOGGED_IN;
  }
  if (err instanceof JobWaitTimeoutError) {
    io.err.write(`${err.message}\n`);
    return EXIT.TIMEOUT;
  }
  if (err instanceof CollectApiError) {
    const envelope = { code: err.code, message: err.message, status: err.status, requestId: err.requestId, fieldErrors: err.fieldErrors };
    io.err.write(json ? `${JSON.stringify(envelope)}\n` : `error ${err.code} (${err.status}${err.requestId ? `, request ${err.requestId}` : ""}): ${err.message}\n${(err.fieldErrors ?? []).map((f) => `  ${f.field}: ${f.message}\n`).join("")}`);
    return err.code === "INVALID_TOKEN" || err.code === "TOKEN_EXPIRED" ? EXIT.NOT_LOGGED_IN : EXIT.API_ERROR;
  }
  throw err;
}
