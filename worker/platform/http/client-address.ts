import type { Context } from "hono";
import type { AppEnv } from "../../env";

/** The caller's address as Cloudflare's edge reports it; local runs have none and share one. */
export const clientAddress = (c: Context<AppEnv>): string => c.req.header("CF-Connecting-IP") ?? "local";
