import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/** The partner-side programs of the repo (the CLI, the examples) as the end-to-end files run them. */

export const ROOT = path.resolve(import.meta.dirname, "../../..");
export const RANGE = { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-02-28" };

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Runs a Node program of the repo as a partner would, under this Node, with only the given environment added. */
export function runNode(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, COLLECT_API_KEY: "", COLLECT_BASE_URL: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
}

export const cli = (args: string[], env: Record<string, string>) => finished(runNode(["cli/bin.mjs", ...args], env));
