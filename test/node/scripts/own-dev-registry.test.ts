import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/free-port";
import { waitFor } from "../../../scripts/local-stack";
import { ownDevRegistry } from "../../../scripts/own-dev-registry";

const BIN = path.resolve(import.meta.dirname, "../../../node_modules/.bin");
const root = mkdtempSync(path.join(tmpdir(), "own-dev-registry-"));
// A queue name of this run's own, so the machine's other sessions never meet it.
const QUEUE = `registry-test-${path.basename(root).replace(/[^a-z0-9]/gi, "").toLowerCase()}`;
const sessions: ChildProcess[] = [];

/** A worker that consumes QUEUE and answers what it received; or, without the consumer, one that sends to it on a POST. */
function writeWorker(name: string, consumes: boolean): void {
  const toml = [`name = "${name}-${QUEUE}"`, 'main = "index.js"', 'compatibility_date = "2026-04-01"', "[[queues.producers]]", 'binding = "Q"', `queue = "${QUEUE}"`];
  if (consumes) toml.push("[[queues.consumers]]", `queue = "${QUEUE}"`, "max_batch_timeout = 0");
  const script = consumes
    ? `let received = 0;
       export default {
         fetch: () => Response.json({ received }),
         async queue(batch) { received += batch.messages.length; batch.ackAll(); },
       };`
    : `export default { fetch: async (req, env) => { if (req.method === "POST") await env.Q.send({ sent: Date.now() }); return new Response("ok"); } };`;
  // A folder of its own: wrangler dev reloads on any change beside the entry (the logs, the state, another's files).
  mkdirSync(path.join(root, name));
  writeFileSync(path.join(root, name, "wrangler.toml"), toml.join("\n"));
  writeFileSync(path.join(root, name, "index.js"), script);
}

/** `wrangler dev` of one worker, with the environment a stack's session has but for its dev registry's place. */
async function startSession(name: string, consumes: boolean, registryOf: string): Promise<string> {
  writeWorker(name, consumes);
  const port = await freePort();
  const state = path.join(root, `${name}-state`);
  const child = spawn(
    path.join(BIN, "wrangler"),
    ["dev", path.join(root, name, "index.js"), "--no-bundle", "--config", path.join(root, name, "wrangler.toml"), "--local", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(await freePort()), "--show-interactive-dev-session=false", "--persist-to", state],
    { cwd: root, env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH}`, WRANGLER_SEND_METRICS: "false", ...ownDevRegistry(path.join(root, "registries", registryOf)) }, stdio: ["ignore", openSync(path.join(root, `${name}.log`), "w"), openSync(path.join(root, `${name}.log`), "a")], detached: true },
  );
  sessions.push(child);
  const url = `http://127.0.0.1:${port}`;
  // What wrangler said goes with a session that never came up.
  await waitFor(url, child, 120_000).catch((err) => {
    throw new Error(`${name}: ${(err as Error).message}\n${readFileSync(path.join(root, `${name}.log`), "utf8").slice(-2000)}`);
  });
  return url;
}

const received = async (consumer: string) => ((await (await fetch(consumer)).json()) as { received: number }).received;

async function settled(consumer: string, atLeast: number): Promise<number> {
  // Local queues deliver within milliseconds; a few seconds leave room for a loaded machine.
  const deadline = Date.now() + 8_000;
  let count = await received(consumer);
  while (count < atLeast && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    count = await received(consumer);
  }
  return count;
}

afterAll(() => {
  for (const child of sessions) if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

describe("a local stack's dev registry", () => {
  it("keeps a session's queue messages from another session's consumer, which a shared registry hands them to", async () => {
    // The consumer registered first: a message forwarded before it is, is dropped.
    const consumer = await startSession("consumer", true, "consumer");
    const [sameRegistry, ownRegistry] = await Promise.all([
      // Registered where the consumer is, as every session on the machine was before: its messages go to that consumer.
      startSession("shared", false, "consumer"),
      startSession("own", false, "own"),
    ]);
    const send = (producer: string) => fetch(producer, { method: "POST" }).then((r) => r.text());
    await send(sameRegistry);
    await send(sameRegistry);
    expect(await settled(consumer, 2)).toBe(2);
    await send(ownRegistry);
    await send(ownRegistry);
    // Time for a forwarded message to arrive, as the shared producer's did.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await received(consumer)).toBe(2);
  });
});
