import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../../../worker/platform/http/app-env";
import { requestId } from "../../../../worker/platform/http/request-id";

/** An app of the request id's middleware alone before `answer`: what the middleware does to the answer a route made. */
function answering(answer: () => Response) {
  const app = new Hono<AppEnv>();
  app.use(requestId);
  app.get("/", answer);
  return (path = "/") => app.fetch(new Request(`https://api.test${path}`), env);
}

describe("headers set on an answer after the route made it", () => {
  it("go on the answer the route made, without a copy of it", async () => {
    const made = new Response("made");
    const answered = await answering(() => made)();
    expect(answered).toBe(made);
    expect(answered.headers.get("X-Request-Id")).toMatch(/^req_[0-9a-f]{32}$/);
    expect(await answered.text()).toBe("made");
  });

  it("go on a copy of an answer whose headers are immutable", async () => {
    const made = Response.redirect("https://api.test/elsewhere", 302);
    expect(() => made.headers.set("X-Probe", "1")).toThrow();
    const answered = await answering(() => made)();
    expect(answered.status).toBe(302);
    expect(answered.headers.get("Location")).toBe("https://api.test/elsewhere");
    expect(answered.headers.get("X-Request-Id")).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
