import { TimeoutError } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { ProviderFailure } from "../../../collectors/adapter";
import { failureAnswer } from "../../../scraper-container/failure-answer";
import { HttpFailure } from "../../../scraper-container/http-io";

describe("scraper failure answers", () => {
  it("answers a browser step that lapsed at puppeteer's own bound as engine congestion, so the job waits instead of spending attempts", () => {
    // What Browser.waitForTarget throws inside context.newPage() when the browser is too loaded to open a page.
    expect(failureAnswer(new TimeoutError("Timed out after waiting 30000ms"))).toEqual({
      status: 429,
      code: "ENGINE_CONCURRENCY_LIMIT",
      retryAfterSeconds: 10,
      detail: "Timed out after waiting 30000ms",
      logged: true,
    });
  });

  it("keeps the institution's own failures, the request's refusals and every other crash apart", () => {
    expect(failureAnswer(new ProviderFailure("TIMEOUT", "page did not settle"))).toEqual({ status: 422, code: "TIMEOUT", detail: "page did not settle", retryAfterSeconds: undefined });
    expect(failureAnswer(new HttpFailure(404, "SESSION_EXPIRED"))).toEqual({ status: 404, code: "SESSION_EXPIRED", retryAfterSeconds: undefined });
    expect(failureAnswer(new Error("Protocol error: Target closed"))).toEqual({ status: 500, code: "ENGINE_CRASHED", logged: true });
  });
});
