import type { Context } from "hono";
import { scraperAuthorization } from "../../../contracts/scraper-protocol";
import { RUNNER_STATUS_PATH, runnerSlotName } from "./runner-hub";
import type { AppEnv } from "../../env";
import { ApiError } from "../../platform/errors/api-error";
import { sha256Hex } from "../../platform/lib/crypto";
import { timingSafeEqualHex } from "../../platform/lib/timing-safe-equal";

/** Where a runner connects (`GET /runner/connect/<slot>`, a WebSocket) and where operators see whether it is (`GET /runner/status/<slot>`). */
export const RUNNER_CONNECT_PATH = "/runner/connect/:slot";
export const RUNNER_STATUS_ROUTE = "/runner/status/:slot";

/** The slot's hub, for a caller showing the secret the worker and the scraper share, and a slot this deployment has (SCRAPER_RUNNERS). */
async function slotHub(c: Context<AppEnv>) {
  const shown = await sha256Hex(c.req.header("Authorization") ?? "");
  if (!timingSafeEqualHex(shown, await sha256Hex(scraperAuthorization(c.env.SCRAPER_SHARED_SECRET)))) throw new ApiError("INVALID_TOKEN");
  const slot = Number(c.req.param("slot"));
  if (!c.env.RUNNER_HUB || !Number.isInteger(slot) || slot < 0 || slot >= Number(c.env.SCRAPER_RUNNERS ?? 0)) throw new ApiError("RESOURCE_NOT_FOUND");
  return c.env.RUNNER_HUB.getByName(runnerSlotName(slot));
}

/** A runner (scraper-container/runner.ts) opens its slot's socket; the slot's Durable Object keeps it. */
export async function connectRunner(c: Context<AppEnv>): Promise<Response> {
  const hub = await slotHub(c);
  if (c.req.header("Upgrade") !== "websocket") throw new ApiError("MALFORMED_REQUEST", { message: "러너 연결은 WebSocket이어야 합니다." });
  return hub.fetch(c.req.raw);
}

/** 200 `{connected: true}` while a runner holds the slot, 503 `{connected: false}` otherwise. */
export async function runnerStatus(c: Context<AppEnv>): Promise<Response> {
  return (await slotHub(c)).fetch(`http://runner${RUNNER_STATUS_PATH}`);
}
