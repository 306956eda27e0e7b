#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so the repo's sources are the program (no build step).
import { register } from "tsx/esm/api";

register();
const { main } = await import("./main.ts");

const aborter = new AbortController();
process.once("SIGINT", () => {
  aborter.abort(new Error("interrupted"));
  // A second Ctrl-C does not wait for the command to clean up.
  process.once("SIGINT", () => process.exit(130));
});
process.once("SIGTERM", () => aborter.abort(new Error("terminated")));

process.exitCode = await main(process.argv.slice(2), { out: process.stdout, err: process.stderr, env: process.env, signal: aborter.signal });
