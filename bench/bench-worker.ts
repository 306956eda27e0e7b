import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { freePort } from "../scripts/free-port";

const ROOT = path.resolve(import.meta.dirname, "..");

/** A baseline worker of a benchmark under `wrangler dev`, ready once it answers HTTP at all. */
export async function startBenchWorker(config: string, persistTo: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    path.join(ROOT, "node_modules/.bin/wrangler"),
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
