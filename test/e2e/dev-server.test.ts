import { Agent, request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "./stack";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

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
