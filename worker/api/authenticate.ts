import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { ApiEnv } from "./context";
import { addressGate, type RateDecision } from "../domain/api-keys/request-gate";
import { keyLeases } from "../domain/api-keys/key-leases";
import { noteStep } from "../platform/http/server-timing";
import { afterAnswer } from "../platform/http/after-answer";
import { ApiError } from "../platform/errors/api-error";
import { clientAddress } from "../platform/http/client-address";
import { sha256Hex } from "../platform/lib/crypto";
import { suspended } from "../domain/workspaces/job-billing";

const BEARER = /^Bearer ([A-Za-z0-9_-]{16,200})$/;

/** The API key the request carries, if its Authorization header is a well-formed bearer key. */
export const bearerKey = (c: Context<ApiEnv>): string | undefined => BEARER.exec(c.req.header("Authorization") ?? "")?.[1];

/**
 * Resolves the bearer key and counts the request in one step, without
 * failing yet: a valid key is counted against its own gate (through this
 * isolate's lease of it, domain/api-keys/key-leases.ts), anything else
 * against the client address, so failed attempts are limited too.
 */
export async function authenticate(c: Context<ApiEnv>): Promise<RateDecision> {
  const key = bearerKey(c);
  if (!key) {
    c.set("authFailure", "INVALID_TOKEN");
    return addressGate(c.env, clientAddress(c)).hit();
  }
  const hash = await sha256Hex(key);
  const { admission, gate } = await keyLeases.admit(c.env, hash, clientAddress(c), (work) => afterAnswer(c, work));
  if (gate) noteStep(c, "gate", "waitedMs" in gate ? gate.waitedMs : "refill");
  if ("key" in admission) {
    c.set("principal", { apiKeyId: admission.key.id, workspaceId: admission.key.workspaceId, keyWorkspaceId: admission.key.workspaceId, isPartner: admission.key.isPartner, rights: admission.key.rights });
  } else c.set("authFailure", "failure" in admission ? admission.failure : "INVALID_TOKEN");
  return admission.decision;
}

export const requireAuth = createMiddleware<ApiEnv>(async (c, next) => {
  const failure = c.get("authFailure");
  if (failure === "WORKSPACE_SUSPENDED") throw suspended();
  if (failure || !c.get("principal")) throw new ApiError(failure ?? "INVALID_TOKEN");
  await next();
});
