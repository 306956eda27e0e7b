import { Agent, fetch as undiciFetch } from "undici";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, inject } from "vitest";
import { type FileBrowser, personChromium } from "../chromium";
import type { Claim } from "./global-setup";
import type { ProfileName } from "./profiles";

/** A file's view of a local stack shared through the global setup: its own workspace, the named ones, and the stack's controls. */
export interface Stack extends Claim {
  /** Kills the scraper processes, as a crash would (profiles of their own only: other files' jobs would die too). */
  killScraper(): Promise<void>;
  startScraper(): Promise<void>;
  /** Kills `wrangler dev` with workerd beneath it; D1, R2 and Durable Object state stay on disk. */
  killWorker(): Promise<void>;
  startWorker(): Promise<void>;
  /** Moves a registration session's expiry into the past, as if its 30 minutes had run out. */
  expireRegistrationSession(sessionId: string): Promise<void>;
}

// A claim answers once the profile's stack is up, which on a loaded machine took past fetch's default 300 s wait
// for headers (c2); the file's hook timeout bounds it instead.
const CONTROL = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** The profile's stack (test/support/e2e/profiles.ts), started by the first file that asks, with a workspace of this file's own. */
export async function startStack(profile: ProfileName = "shared"): Promise<Stack> {
  const control = async (action: string, payload: Record<string, unknown> = {}) => {
    const response = await undiciFetch(`${inject("e2eControl")}/${action}`, { method: "POST", body: JSON.stringify({ profile, ...payload }), dispatcher: CONTROL });
    if (!response.ok) throw new Error(`stack ${profile} ${action}: ${await response.text()}`);
    return response.json();
  };
  const claim = (await control("claim")) as Claim;
  return {
    ...claim,
    killScraper: async () => void (await control("kill-scraper")),
    startScraper: async () => void (await control("start-scraper")),
    killWorker: async () => void (await control("kill-worker")),
    startWorker: async () => void (await control("start-worker")),
    expireRegistrationSession: async (sessionId) => void (await control("expire-registration-session", { sessionId })),
  };
}

type Json = Record<string, any>;

export function client(stack: Claim, apiKey = stack.apiKey) {
  const request = async (method: string, urlPath: string, body?: unknown) => {
    const response = await fetch(`${stack.baseUrl}${urlPath}`, {
      method,
      headers: { Authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response;
  };
  const json = async (method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const response = await request(method, urlPath, body);
    return { status: response.status, body: (await response.json()) as Json };
  };
  return {
    request,
    json,
    createJob: async (body: Json) => {
      const res = await json("POST", "/api/v1/data-jobs", body);
      if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    /** Polls until the job is terminal, handing each InProgress snapshot to `onProgress`. */
    waitForJob: async (id: string, onProgress?: (job: Json) => Promise<void> | void, timeoutMs = 480_000): Promise<Json> => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const { body } = await json("GET", `/api/v1/data-jobs/${id}`);
        if (body.kind !== "InProgress") return body;
        await onProgress?.(body);
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`job ${id} still running after ${timeoutMs} ms`);
    },
  };
}

/**
 * A file's shared stack and its share of the worker's Chromium for a person's pages: started before the file's tests
 * (hooks the file registers after this run after it), the browser's contexts closed after them. Read through the
 * accessors, which throw before the start.
 */
export function useStackAndBrowser() {
  let stack: Stack | undefined;
  let browser: FileBrowser | undefined;
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), personChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the stack and the browser start in the file's beforeAll");
    return value;
  };
  return {
    /** Whether the start succeeded: an afterAll that undoes a test's change has nothing to undo otherwise. */
    hasStarted: () => stack !== undefined,
    stack: () => started(stack),
    browser: () => started(browser),
    /** A page in a browser context of its own (no cookies shared between tests), at a phone's or a desk's size when given a width. */
    async newPage({ width }: { width?: number } = {}): Promise<Page> {
      const page = await (await started(browser).createBrowserContext()).newPage();
      if (width !== undefined) await page.setViewport({ width, height: width < 600 ? 844 : 800 });
      return page;
    },
  };
}
