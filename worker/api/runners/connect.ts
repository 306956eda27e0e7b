import type { Hono } from "hono";
import { z } from "@hono/zod-openapi";
import { scraperAuthorization } from "../../../contracts/scraper-protocol";
import { RUNNER_STATUS_PATH, runnerSlot } from "../../domain/scraper/runner-hub";
import type { ApiEnv } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { sha256Hex } from "../../platform/lib/crypto";
import { timingSafeEqualHex } from "../../platform/lib/timing-safe-equal";
import { pathParams, type WithPath } from "../../web/path-params";

/** Where a runner connects (`GET /runner/connect/<slot>`, a WebSocket) and where operators see whether it is (`GET /runner/status/<slot>`). */
export const RUNNER_CONNECT_PATH = "/runner/connect/:slot";
export const RUNNER_STATUS_ROUTE = "/runner/status/:slot";

/** The slot's hub, for a caller showing the secret the worker and the scraper share, and a slot this deployment has (SCRAPER_RUNNERS). */
async function slotHub(c: WithPath<ApiEnv, "slot">) {
  const shown = await sha256Hex(c.req.header("Authorization") ?? "");
  if (!timingSafeEqualHex(shown, await sha256Hex(scraperAuthorization(c.env.SCRAPER_SHARED_SECRET)))) throw new ApiError("INVALID_TOKEN");
  const hub = runnerSlot(c.env, Number(c.req.valid("param").slot));
  if (!hub) throw new ApiError("RESOURCE_NOT_FOUND");
  return hub;
}

/** A runner (scraper-container/runner.ts) opens its slot's socket; the slot's Durable Object keeps it. */
async function connectRunner(c: WithPath<ApiEnv, "slot">): Promise<Response> {
  const hub = await slotHub(c);
  if (c.req.header("Upgrade") !== "websocket") throw new ApiError("MALFORMED_REQUEST", { message: "러너 연결은 WebSocket이어야 합니다." });
  return hub.fetch(c.req.raw);
}

/** 200 `{connected: true}` while a runner holds the slot, 503 `{connected: false}` otherwise. */
async function runnerStatus(c: WithPath<ApiEnv, "slot">): Promise<Response> {
  return (await slotHub(c)).fetch(`http://runner${RUNNER_STATUS_PATH}`);
}

/** The slot in the path: any string, as the router matched it; a slot this deployment has not is 404 from slotHub. */
const SlotPath = z.object({ slot: z.string() });

/** The runners' routes, beside the API on the app (app.ts). */
export function registerRunnerRoutes(app: Hono<ApiEnv>): void {
  app.get(RUNNER_CONNECT_PATH, pathParams(SlotPath), connectRunner);
  app.get(RUNNER_STATUS_ROUTE, pathParams(SlotPath), runnerStatus);
}
