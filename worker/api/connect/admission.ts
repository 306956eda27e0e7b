import type { Context } from "hono";
import type { ApiEnv } from "../context";
import { addressGate, type RateDecision, sessionGate } from "../../domain/api-keys/request-gate";
import { clientAddress } from "../../platform/http/client-address";
import { sha256Hex } from "../../platform/lib/crypto";
import { presentedRegistrationToken } from "./token";

/** The decision that binds: a refusal over an admission, else the one with less room left. */
const tighter = (a: RateDecision, b: RateDecision): RateDecision => (a.allowed !== b.allowed ? (a.allowed ? b : a) : a.remaining <= b.remaining ? a : b);

/**
 * Counts a call of the hosted UI's API against the client address and,
 * when it presents a token of an issued session, against that session:
 * an address cannot flood the API with made-up tokens, and one session
 * cannot be hammered from many addresses. The address goes first, so a
 * made-up token is looked up only while its address has room.
 */
export async function admitHostedUiCall(c: Context<ApiEnv>): Promise<RateDecision> {
  const byAddress = await addressGate(c.env, clientAddress(c)).hit();
  const token = presentedRegistrationToken(c);
  if (!byAddress.allowed || !token) return byAddress;
  const tokenHash = await sha256Hex(token);
  const bySession = await sessionGate(c.env, tokenHash).admitSession(tokenHash);
  return bySession ? tighter(byAddress, bySession) : byAddress;
}
