import type { ParseArgsConfig } from "node:util";
import { CollectClient } from "../client/src/index";
import { resolveLogin } from "./config";
import { type ExitCode, NotLoggedInError } from "./exit-codes";

type Out = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

export interface Context {
  /** The service's origin (flag, environment or stored login). */
  baseUrl: string;
  /** --json: machine-readable output on stdout. */
  json: boolean;
  out: Out;
  err: Out;
  env: NodeJS.ProcessEnv;
  /** A client with the stored (or COLLECT_API_KEY) key; NotLoggedInError without one. */
  client(): CollectClient;
  /** Aborted on Ctrl-C, so waits and receivers stop cleanly. */
  signal: AbortSignal;
}

export interface Invocation {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  /** Arguments after the command's words. */
  args: string[];
}

export interface Command {
  /** e.g. "jobs create --provider CODE --schema ID [--param NAME=VALUE ...] [--wait]" */
  usage: string;
  summary: string;
  options?: NonNullable<ParseArgsConfig["options"]>;
  run(ctx: Context, invocation: Invocation): Promise<ExitCode>;
}

export async function createContext(options: { baseUrl?: string; json: boolean; business?: string; out: Out; err: Out; env: NodeJS.ProcessEnv; signal: AbortSignal }): Promise<Context> {
  const login = await resolveLogin(options.baseUrl, options.env);
  return {
    baseUrl: login.baseUrl,
    json: options.json,
    out: options.out,
    err: options.err,
    env: options.env,
    signal: options.signal,
    client() {
      if (!login.apiKey) throw new NotLoggedInError();
      return new CollectClient({ baseUrl: login.baseUrl, apiKey: login.apiKey, business: options.business });
    },
  };
}
