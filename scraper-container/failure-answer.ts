import { TimeoutError } from "puppeteer-core";
import { ProviderFailure } from "../collectors/adapter";
import type { PageReport } from "../contracts/scraper-protocol";
import { ReportedFailure } from "../collectors/kit/page-report";
import { HttpFailure } from "./http-io";

export interface FailureAnswer {
  status: number;
  code: string;
  retryAfterSeconds?: number;
  detail?: string;
  /** Neither the request's fault nor the institution's: the scraper's log keeps the error for whoever looks into it. */
  logged?: true;
  report?: PageReport;
}

/** How soon a caller turned away because the browser is overloaded may ask again. */
const BUSY_BROWSER_RETRY_SECONDS = 10;

/**
 * The failure envelope for whatever a request threw. Adapters bound every wait on the institution themselves
 * (TIMEOUT); a puppeteer TimeoutError that reaches here lapsed at puppeteer's own bound on a browser step no
 * institution is part of (a new page's target, a page's script context), which only an overloaded browser misses:
 * the engine is congested, so the job waits for capacity instead of spending its attempts on ENGINE_CRASHED.
 */
export function failureAnswer(err: unknown): FailureAnswer {
  if (err instanceof HttpFailure) return { status: err.status, code: err.code, retryAfterSeconds: err.retryAfterSeconds, detail: err.detail };
  if (err instanceof ReportedFailure) return { status: 422, code: err.code, detail: err.message, report: err.report };
  if (err instanceof ProviderFailure) return { status: 422, code: err.code, retryAfterSeconds: err.retryAfterSeconds, detail: err.message };
  if (err instanceof TimeoutError) return { status: 429, code: "ENGINE_CONCURRENCY_LIMIT", retryAfterSeconds: BUSY_BROWSER_RETRY_SECONDS, detail: err.message, logged: true };
  // Anything else is the browser or this process failing, not the institution.
  return { status: 500, code: "ENGINE_CRASHED", logged: true };
}
