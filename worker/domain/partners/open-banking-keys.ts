import { and, asc, eq, sql } from "drizzle-orm";
import type { OpenBankingKeys } from "../../../collectors/openbanking";
import { database } from "../../platform/database/client";
import { ApiError } from "../../platform/errors/api-error";
import { connections, partnerOpenBankingKeys } from "./tables";
import { openText, rewrapText, sealText } from "../vault/envelope";
import { pastKey, type RewrapTally, rewrapRows, sealedBefore } from "../vault/rewrap-rows";

/**
 * A partner's own Open Banking 이용기관 keys (docs/institutions/openbanking.md §1.5): set and removed by the partner
 * (PUT/DELETE /partner-profile/open-banking-keys), used for the consents of its own businesses only, i.e. for a
 * registration session or a consent whose workspace is that of an ACTIVE connection of this partner. The secret is
 * sealed bound to the partner's workspace and opened only to hand it to the scraper's token call.
 */

/** What the partner reads back: never the secret. */
export interface OpenBankingKeysView {
  clientId: string;
  clientUseCode: string;
  setAt: number;
}

const binding = (partnerWorkspaceId: string) => ["partner-open-banking-keys", partnerWorkspaceId] as const;

/** 이용기관 code: 10 uppercase letters and digits (the first ten characters of every bank_tran_id). */
export const CLIENT_USE_CODE = /^[A-Z0-9]{10}$/;

export async function setOpenBankingKeys(d1: D1Database, masterKey: string, partnerWorkspaceId: string, keys: OpenBankingKeys, now: number): Promise<OpenBankingKeysView> {
  if (!CLIENT_USE_CODE.test(keys.clientUseCode)) throw new ApiError("INVALID_PARAM_FORMAT", { message: "clientUseCode는 영문 대문자와 숫자 10자입니다." });
  const sealed = await sealText(masterKey, binding(partnerWorkspaceId), keys.clientSecret);
  await database(d1)
    .insert(partnerOpenBankingKeys)
    .values({ partnerWorkspaceId, clientId: keys.clientId, clientUseCode: keys.clientUseCode, sealedSecret: sealed, setAt: now })
    .onConflictDoUpdate({
      target: partnerOpenBankingKeys.partnerWorkspaceId,
      set: { clientId: sql`excluded.client_id`, clientUseCode: sql`excluded.client_use_code`, sealedSecret: sql`excluded.sealed_secret`, setAt: sql`excluded.set_at` },
    });
  return { clientId: keys.clientId, clientUseCode: keys.clientUseCode, setAt: now };
}

/** Removes the partner's keys (the sealed secret with them); consents made with them then fail their next refresh. */
export async function removeOpenBankingKeys(d1: D1Database, partnerWorkspaceId: string): Promise<boolean> {
  const { meta } = await database(d1).delete(partnerOpenBankingKeys).where(eq(partnerOpenBankingKeys.partnerWorkspaceId, partnerWorkspaceId)).run();
  return meta.changes > 0;
}

export async function openBankingKeysView(d1: D1Database, partnerWorkspaceId: string): Promise<OpenBankingKeysView | null> {
  const k = partnerOpenBankingKeys;
  return (await database(d1).select({ clientId: k.clientId, clientUseCode: k.clientUseCode, setAt: k.setAt }).from(k).where(eq(k.partnerWorkspaceId, partnerWorkspaceId)).get()) ?? null;
}

interface KeysRow {
  partnerWorkspaceId: string;
  clientId: string;
  clientUseCode: string;
  sealedSecret: string;
}

/** The keys of the partner acting for `workspaceId` (an ACTIVE connection's workspace), if it set any. */
async function keysRowFor(d1: D1Database, workspaceId: string): Promise<KeysRow | null> {
  const k = partnerOpenBankingKeys;
  const row = await database(d1)
    .select({ partnerWorkspaceId: k.partnerWorkspaceId, clientId: k.clientId, clientUseCode: k.clientUseCode, sealedSecret: k.sealedSecret })
    .from(connections)
    .innerJoin(k, eq(k.partnerWorkspaceId, connections.partnerWorkspaceId))
    .where(and(eq(connections.workspaceId, workspaceId), eq(connections.status, "ACTIVE")))
    .get();
  return row ?? null;
}

/** The partner's client id for a consent started in `workspaceId`, or null: the deployment's keys then. */
export async function partnerClientIdFor(d1: D1Database, workspaceId: string): Promise<string | null> {
  return (await keysRowFor(d1, workspaceId))?.clientId ?? null;
}

/**
 * The opened keys for a token call about a consent of `workspaceId`: the acting partner's, if it set any and (for a
 * refresh) its 이용기관 code is the consent's. Null: the deployment's keys (the scraper's own), which refuse a consent
 * of another 이용기관 (NO_VALID_CREDENTIAL), e.g. once its partner removed or replaced its keys.
 */
export async function partnerKeysFor(d1: D1Database, masterKey: string, workspaceId: string, clientUseCode?: string): Promise<OpenBankingKeys | null> {
  const row = await keysRowFor(d1, workspaceId);
  if (!row || (clientUseCode !== undefined && row.clientUseCode !== clientUseCode)) return null;
  const clientSecret = await openText(masterKey, binding(row.partnerWorkspaceId), row.sealedSecret);
  return { clientId: row.clientId, clientSecret, clientUseCode: row.clientUseCode };
}

/** Moves sealed partner secrets past `after` onto the newest master key (key-rotation/rewrap.ts). */
export function rewrapOpenBankingKeys(d1: D1Database, masterSecret: string, after: string | null, limit: number): Promise<RewrapTally> {
  const k = partnerOpenBankingKeys;
  const db = database(d1);
  return rewrapRows(masterSecret, after, limit, {
    stale: (latest, after, limit) =>
      db
        .select({ id: k.partnerWorkspaceId, sealed: k.sealedSecret })
        .from(k)
        .where(and(pastKey(k.partnerWorkspaceId, after), sealedBefore(k.sealedSecret, latest)))
        .orderBy(asc(k.partnerWorkspaceId))
        .limit(limit)
        .all(),
    rewrap: (row) => rewrapText(masterSecret, binding(row.id), row.sealed),
    write: (row, sealed) => db.update(k).set({ sealedSecret: sealed }).where(and(eq(k.partnerWorkspaceId, row.id), eq(k.sealedSecret, row.sealed))),
  });
}
