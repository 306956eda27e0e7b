import { env } from "cloudflare:workers";
import { Secret, TOTP } from "otpauth";
import { expect } from "vitest";
import { database } from "../../../worker/platform/database/client";
import { type OperatorRole, operators } from "../../../worker/domain/operators/tables";
import { operatorRecord } from "../../../worker/domain/operators/enrol";
import { callJson } from "./helpers";

type Json = Record<string, any>;

/** A fresh operator and the authenticator app a person would have enrolled with its secret: otpauth, not our code. */
export async function newOperator(role: OperatorRole) {
  const email = `ops-${crypto.randomUUID().slice(0, 8)}@collect-edge.co.kr`;
  const password = `pw-${crypto.randomUUID()}`;
  const { row, totpSecret } = await operatorRecord(env.VAULT_MASTER_KEY, { email, password, role });
  await database(env.DB).insert(operators).values(row);
  const app = new TOTP({ issuer: "collect-edge", label: email, secret: Secret.fromBase32(totpSecret) });
  return { id: row.id, email, password, app };
}

/** An operator signed in through the operator API, with their session's bearer token and their authenticator app. */
export async function signedIn(role: OperatorRole): Promise<{ id: string; email: string; token: string; app: TOTP; signInCode: string }> {
  const operator = await newOperator(role);
  // Kept: the authenticator may show the next half-minute's code by the time a test asks it again.
  const signInCode = operator.app.generate();
  const answer = await callJson<Json>("/admin/api/sessions", { method: "POST", json: { email: operator.email, password: operator.password, code: signInCode } });
  expect(answer.status).toBe(201);
  return { id: operator.id, email: operator.email, token: answer.body.token, app: operator.app, signInCode };
}

/**
 * The code the operator's authenticator shows now, for an action that asks for a fresh one (refunds, credits). A
 * code is good once, and a test does in seconds what a person does a half-minute apart: the account forgets the
 * step its last code used, as the passing of that half-minute would.
 */
export async function freshCode(operator: { id: string; app: TOTP }): Promise<string> {
  await env.DB.prepare("UPDATE operators SET totp_last_step = 0 WHERE id = ?").bind(operator.id).run();
  return operator.app.generate();
}

/** A call of the operator API: GET without a body, POST with one. */
export const act = (token: string, path: string, json?: unknown) => callJson<Json>(`/admin/api${path}`, { method: json === undefined ? "GET" : "POST", key: token, json });

export const auditOf = async (token: string, targetId: string) => (await act(token, `/audit?targetId=${encodeURIComponent(targetId)}`)).body.items as Json[];
