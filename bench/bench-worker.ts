import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "../scripts/free-port";
import { freshSchemaSql, run } from "../scripts/local-stack";

const ROOT = path.resolve(import.meta.dirname, "..");
const WRANGLER = path.join(ROOT, "node_modules/.bin/wrangler");

/** A baseline worker of a benchmark under `wrangler dev`, ready once it answers HTTP at all. */
export async function startBenchWorker(config: string, persistTo: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    WRANGLER,
    ["dev", "--config", config, "--local", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(await freePort()), "--persist-to", persistTo],
    { cwd: ROOT, env: { ...process.env, PATH: `${path.join(ROOT, "node_modules/.bin")}:${process.env.PATH}`, WRANGLER_SEND_METRICS: "false" }, stdio: "ignore" },
  );
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev --config ${config} exited with ${child.exitCode}`);
    try {
      await (await fetch(url)).arrayBuffer();
      return { url, child };
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** The service's whole schema (every file of drizzle/) in a bench worker's local D1 `database`, before it starts. */
export async function applyServiceSchema(config: string, database: string, persistTo: string): Promise<void> {
  const file = path.join(persistTo, "schema.sql");
  writeFileSync(file, freshSchemaSql());
  await run(WRANGLER, ["d1", "execute", database, "--config", config, "--local", "--persist-to", persistTo, "--file", file], { ...process.env, CI: "1" });
}
