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

// A reader that stops early (`collect results … | head`) closes the pipe. C tools die of SIGPIPE there; Node ignores
// SIGPIPE and raises EPIPE on the stream, which unhandled is a stack trace. What is left to write has no reader, so
// the command stops as on Ctrl-C (a listener deletes its endpoint) and ends with 0, as `head` got what it wanted.
let readerGone = false;
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
    readerGone = true;
    aborter.abort(new Error("output closed"));
  });
}

const code = await main(process.argv.slice(2), { out: process.stdout, err: process.stderr, env: process.env, signal: aborter.signal });
process.exitCode = readerGone ? 0 : code;
