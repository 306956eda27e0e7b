import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../scripts/free-port";
import { startLocalStack } from "../scripts/local-stack";

const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * wrangler.toml without the collect-tasks consumer: the plan messages creates send wait in the local queue, as they
 * would for consumers in another isolate, instead of running a collection in the runtime being measured.
 */
export function configWithoutTaskConsumer(): string {
  const toml = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
  const consumer = /\[\[queues\.consumers\]\]\nqueue = "collect-tasks"\n(?:[^\n]+\n)*/;
  if (!consumer.test(toml)) throw new Error("wrangler.toml: no top-level collect-tasks consumer to leave out");
  const dir = path.join(ROOT, "test-artifacts/bench-api-credentialed");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "wrangler.toml");
  // wrangler dev reads the secrets beside its configuration: the checkout's own, made by the first stack (localSecrets).
  rmSync(path.join(dir, ".dev.vars"), { force: true });
  symlinkSync(path.join(ROOT, ".dev.vars"), path.join(dir, ".dev.vars"));
  // Beside the checkout's, relative paths would name files that are not there: the entry and migrations made absolute.
  writeFileSync(file, toml.replace(consumer, "").replace('main = "worker/index.ts"', `main = "${path.join(ROOT, "worker/index.ts")}"`).replaceAll('migrations_dir = "drizzle"', `migrations_dir = "${path.join(ROOT, "drizzle")}"`));
  return file;
}

/** A local stack of a benchmark: fresh state, rate limits lifted (every refusal is a defect there), logs under test-artifacts/<name>. */
export const benchStack = async (name: string, vars: Record<string, string> = {}, config?: string, inspectorPort?: number) =>
  startLocalStack({
    config,
    inspectorPort,
    port: await freePort(),
    sandboxPort: await freePort(),
    scraperPort: await freePort(),
    persistTo: mkdtempSync(path.join(tmpdir(), `${name}-`)),
    vars: { RATE_LIMIT_PER_MINUTE: "10000000", RATE_LIMIT_PER_HOUR: "10000000", ...vars },
    logDir: path.join(ROOT, `test-artifacts/${name}`),
  });
