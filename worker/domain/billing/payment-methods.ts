import { and, asc, count, desc, eq, isNull } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { paymentMethods, subscriptions } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { sha256Hex } from "../../platform/lib/crypto";
import { openText, rewrapText, sealText } from "../vault/envelope";
import { pastKey, type RewrapTally, rewrapRows, sealedBefore } from "../vault/rewrap-rows";
import type { CardDetails, PaymentGateway } from "./gateway";
import { noteAlerted } from "../alerts/raise";
import { NO_PROVIDER } from "../alerts/rules";

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;

/** Cards one workspace keeps: enough for a spare or two, bounded like every input. */
export const MAX_PAYMENT_METHODS = 5;

const live = (workspaceId: string) => and(eq(paymentMethods.workspaceId, workspaceId), isNull(paymentMethods.deletedAt));

export const openBillingKey = (masterKey: string, row: PaymentMethodRow): Promise<string> => openText(masterKey, [row.id], row.sealedBillingKey);

/**
 * Registers a card with the gateway and keeps its billing key, sealed and bound to the new row; the card's number
 * goes no further than the gateway (only its last four digits are kept). A refused card is the gateway's 402, and
 * counts toward the operators' CARD_DECLINED alert (a run of them is someone testing stolen cards). The surfaces
 * limit attempts before calling this (console-sessions/login-attempts.ts countCardAttempt).
 */
export async function addPaymentMethod(env: Pick<Env, "DB" | "VAULT_MASTER_KEY" | "ALERT_DESKS">, gateway: PaymentGateway, workspaceId: string, card: CardDetails, now: number = Date.now()): Promise<PaymentMethodRow> {
  const db = database(env.DB);
  const held = await db.select({ n: count() }).from(paymentMethods).where(live(workspaceId)).get();
  if ((held?.n ?? 0) >= MAX_PAYMENT_METHODS) {
    throw new ApiError("INVALID_PARAM_FORMAT", { message: `결제 수단은 ${MAX_PAYMENT_METHODS}개까지 등록할 수 있습니다. 쓰지 않는 카드를 지운 뒤 등록해 주세요.` });
  }
  let billingKey: string;
  try {
    ({ billingKey } = await gateway.registerCard(card, workspaceId));
  } catch (err) {
    // The card company's refusal, not the gateway failing (PAYMENT_FAILED): the number never leaves this function.
    if (err instanceof ApiError && err.code !== "PAYMENT_FAILED") await noteAlerted(env, "CARD_DECLINED", NO_PROVIDER, `card registration refused (${err.code}), workspace ${workspaceId}`);
    throw err;
  }
  const id = crypto.randomUUID();
  const row: PaymentMethodRow = {
    id,
    workspaceId,
    sealedBillingKey: await sealText(env.VAULT_MASTER_KEY, [id], billingKey),
    billingKeyHash: await sha256Hex(billingKey),
    cardLast4: card.number.slice(-4),
    createdAt: now,
    deletedAt: null,
  };
  await db.insert(paymentMethods).values(row);
  return row;
}

export function listPaymentMethods(d1: D1Database, workspaceId: string): Promise<PaymentMethodRow[]> {
  return database(d1).select().from(paymentMethods).where(live(workspaceId)).orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id)).all();
}

/** The card the next charge goes to: the newest one registered. */
export async function chargeableMethod(d1: D1Database, workspaceId: string): Promise<PaymentMethodRow | null> {
  return (await listPaymentMethods(d1, workspaceId))[0] ?? null;
}

/**
 * Deletes a card here and at the gateway. 404 PAYMENT_METHOD_NOT_FOUND for none of the workspace's live cards; 409
 * PAYMENT_METHOD_IN_USE for the card the paid plan's next renewal would charge (no other card, and no cancellation
 * booked): the plan would have nothing to renew with.
 */
export async function deletePaymentMethod(env: Pick<Env, "DB" | "VAULT_MASTER_KEY">, gateway: PaymentGateway, workspaceId: string, id: string, now: number = Date.now()): Promise<void> {
  const db = database(env.DB);
  const methods = await listPaymentMethods(env.DB, workspaceId);
  const row = methods.find((m) => m.id === id);
  if (!row) throw new ApiError("PAYMENT_METHOD_NOT_FOUND");
  const subscription = await db.select().from(subscriptions).where(eq(subscriptions.workspaceId, workspaceId)).get();
  if (subscription && subscription.pendingPlan !== "FREE" && methods[0]!.id === id && methods.length === 1) {
    throw new ApiError("PAYMENT_METHOD_IN_USE", { message: "유료 플랜의 다음 결제에 쓰일 카드입니다. 다른 카드를 먼저 등록하거나 해지를 예약한 뒤 지워 주세요." });
  }
  await db.update(paymentMethods).set({ deletedAt: now }).where(and(eq(paymentMethods.id, id), isNull(paymentMethods.deletedAt)));
  await gateway.forgetCard(await openBillingKey(env.VAULT_MASTER_KEY, row));
}

/**
 * A rotation step over cards' billing keys (domain/key-rotation/rewrap.ts): `limit` rows past `after` still sealed
 * under an older master key version, each moved onto the newest on its own (only if unchanged meanwhile), deleted cards' too.
 */
export function rewrapBillingKeys(d1: D1Database, masterSecret: string, after: string | null, limit: number): Promise<RewrapTally> {
  const db = database(d1);
  return rewrapRows(masterSecret, after, limit, {
    stale: (latest, after, limit) =>
      db
        .select({ id: paymentMethods.id, sealed: paymentMethods.sealedBillingKey })
        .from(paymentMethods)
        .where(and(pastKey(paymentMethods.id, after), sealedBefore(paymentMethods.sealedBillingKey, latest)))
        .orderBy(asc(paymentMethods.id))
        .limit(limit)
        .all(),
    rewrap: (row) => rewrapText(masterSecret, [row.id], row.sealed),
    write: (row, sealed) =>
      db.update(paymentMethods).set({ sealedBillingKey: sealed }).where(and(eq(paymentMethods.id, row.id), eq(paymentMethods.sealedBillingKey, row.sealed))),
  });
}

/** Every card the workspace ever registered, deleted ones too, by its billing key's hash: which card a payment was made with. */
export function cardsByBillingKey(d1: D1Database, workspaceId: string): Promise<{ id: string; billingKeyHash: string }[]> {
  return database(d1).select({ id: paymentMethods.id, billingKeyHash: paymentMethods.billingKeyHash }).from(paymentMethods).where(eq(paymentMethods.workspaceId, workspaceId)).all();
}

/** Whether a billing key is one of ours (any workspace's, deleted or not), by its hash. */
export async function isOurBillingKey(d1: D1Database, billingKey: string): Promise<boolean> {
  return (await database(d1).select({ id: paymentMethods.id }).from(paymentMethods).where(eq(paymentMethods.billingKeyHash, await sha256Hex(billingKey))).get()) !== undefined;
}

/** The gateway deleted a billing key (the card company, or the holder through it): its card is gone here too. */
export async function forgetDeletedBillingKey(d1: D1Database, billingKey: string, now: number = Date.now()): Promise<boolean> {
  const done = await database(d1)
    .update(paymentMethods)
    .set({ deletedAt: now })
    .where(and(eq(paymentMethods.billingKeyHash, await sha256Hex(billingKey)), isNull(paymentMethods.deletedAt)))
    .returning({ id: paymentMethods.id });
  return done.length > 0;
}
