// start-order: 5 (why: vitest.e2e.config.ts)
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { newApiKey, newDemoPassword } from "../../scripts/demo-seed";
import { freePort, portIsFree } from "../../scripts/free-port";
import { newTotpSecret } from "../../worker/domain/operators/second-factor";
import { finished, ROOT } from "../support/e2e/partner-programs";
import { type Stack, startStack } from "../support/e2e/stack";

let stack: Stack;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A create the worker refuses (400, no job made), so the stream costs nothing; the worker's X-Request-Id on the
 * answer shows it reached the worker and was not answered by wrangler dev's proxy. Sent over `connection`, one
 * kept-alive socket, so the time between two posts is the time that socket sat idle.
 */
function post(connection: Agent): Promise<{ status: number; requestId: string | null }> {
  const body = JSON.stringify({ providerCode: "sandbox.bank" });
  return new Promise((resolve, reject) => {
    const sent = request(
      `${stack.baseUrl}/api/v1/data-jobs`,
      { method: "POST", agent: connection, headers: { Authorization: `Bearer ${stack.apiKey}`, "Content-Type": "application/json" } },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode!, requestId: (response.headers["x-request-id"] as string | undefined) ?? null }));
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

const connection = () => new Agent({ keepAlive: true, maxSockets: 1 });

describe("the local stack's dev server", () => {
  beforeAll(async () => {
    stack = await startStack();
  });

  // wrangler dev 4.86's proxy and the worker dropped idle keep-alive connections on the same 5 s timer and raced:
  // a POST arriving as they did was answered "503 Your worker restarted mid-request" and never reached the worker
  // (10 of 870 in a 90 s stream; cloudflare/workers-sdk issues 14641 and 14848). Streamed, then spaced around that
  // timer, every POST must reach the worker. Each spacing has a connection of its own, so all run at once.
  it("passes every POST to the worker, streamed or spaced around the idle connection timer", async () => {
    const stream = async () => {
      const answers = [];
      const streamed = connection();
      for (let i = 0; i < 100; i++) {
        answers.push(await post(streamed));
        await sleep(100);
      }
      streamed.destroy();
      return answers;
    };
    const spaced = async (gapMs: number) => {
      const spacedOut = connection();
      const first = await post(spacedOut);
      await sleep(gapMs);
      const second = await post(spacedOut);
      spacedOut.destroy();
      return [first, second];
    };
    const answers = (await Promise.all([stream(), ...[4_800, 4_900, 5_000, 5_100, 5_200].map(spaced)])).flat();
    expect(answers).toHaveLength(110);
    expect(answers.filter((a) => a.status !== 400)).toEqual([]);
    expect(answers.every((a) => a.requestId)).toBe(true);
  });
});

/** What /proc says of a process: its parent and whether it still runs (a zombie has ended, only its entry is left). */
function processes(): Map<number, { ppid: number; running: boolean; command: string }> {
  const found = new Map<number, { ppid: number; running: boolean; command: string }>();
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      found.set(Number(entry), { ppid: Number(ppid), running: state !== "Z", command: readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim() });
    } catch {
      // ended while read
    }
  }
  return found;
}

function descendants(root: number): number[] {
  const all = processes();
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, { ppid }] of all) if (ppid === found[i]) found.push(pid);
  return found.slice(1);
}

describe("npm start", () => {
  // A `wrangler dev` left by a start that was killed (SIGKILL, a closed terminal) kept its port from a process group
  // of its own, and the next start talked to it. One start, the expensive part, serves both checks.
  it("refuses a taken port with a clear message, and when npm is SIGKILLed leaves no process and no port behind", async () => {
    const ports = { PORT: await freePort(), SANDBOX_PORT: await freePort(), SCRAPER_PORT: await freePort() };
    const state = mkdtempSync(path.join(tmpdir(), "collect-npm-start-"));
    const env = {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
      LOCAL_STATE_DIR: state,
      DEMO_API_KEY: newApiKey(),
      DEMO_PASSWORD: newDemoPassword(),
      DEMO_OPERATOR_PASSWORD: newDemoPassword(),
      DEMO_OPERATOR_TOTP_SECRET: newTotpSecret(),
    };
    const npmStart = () => spawn("npm", ["start"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    const started = npmStart();
    let children: number[] = [];
    try {
      const output = finished(started);
      let printed = "";
      started.stdout!.on("data", (d) => (printed += d));
      for (const since = Date.now(); !printed.includes("Ctrl-C로 모두 종료합니다"); await new Promise((r) => setTimeout(r, 250))) {
        if (started.exitCode !== null || Date.now() - since > 300_000) throw new Error(`npm start did not come up: ${JSON.stringify(await output)}`);
      }
      const baseUrl = `http://127.0.0.1:${ports.PORT}`;
      // The banner stays last on the screen: wrangler's bindings table and its request lines go to the worker's log.
      expect((await fetch(`${baseUrl}/api/v1/openapi.json`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1000));
      expect(printed.trimEnd().endsWith("Ctrl-C로 모두 종료합니다.")).toBe(true);
      expect(printed).toContain(`/hometax-phone`);
      expect(printed).not.toContain("Your Worker has access to the following bindings");
      expect(readFileSync(path.join(state, "logs", "worker.log"), "utf8")).toContain("Your Worker has access to the following bindings");

      // The start it refuses ends at once: one that waits (on the other stack's worker) fails here, not at the test's timeout.
      const refusing = npmStart();
      const bound = setTimeout(() => refusing.kill("SIGKILL"), 60_000);
      const second = await finished(refusing);
      clearTimeout(bound);
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain(`포트 ${ports.PORT}(PORT)을 이미 다른 프로세스가 쓰고 있어 시작하지 않습니다`);
      expect(second.stderr).not.toMatch(/\n\s+at /);
      expect((await fetch(`${baseUrl}/api/v1/openapi.json`)).status).toBe(200);

      children = descendants(started.pid!);
      const commands = () => [...processes()].filter(([pid, p]) => children.includes(pid) && p.running).map(([, p]) => p.command);
      expect(commands().some((command) => command.includes("wrangler") && command.includes(" dev "))).toBe(true);
      process.kill(started.pid!, "SIGKILL");
      for (const since = Date.now(); commands().length > 0 || !(await portIsFree(ports.PORT)); await new Promise((r) => setTimeout(r, 250))) {
        if (Date.now() - since > 30_000) break;
      }
      expect(commands()).toEqual([]);
      expect(await portIsFree(ports.PORT)).toBe(true);
    } finally {
      // A failed check must not leave the stack running for the next file.
      for (const pid of [started.pid!, ...children]) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone
        }
      }
      rmSync(state, { recursive: true, force: true });
    }
  });
});
