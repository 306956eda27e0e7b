import type { OpenBankingKeys } from "../../../collectors/openbanking";
import { ApiError } from "../../platform/errors/api-error";
import { latestKeyVersion, openText, rewrapText, sealText } from "../vault/envelope";

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
  await d1
    .prepare(
      `INSERT INTO partner_open_banking_keys (partner_workspace_id, client_id, client_use_code, sealed_secret, set_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (partner_workspace_id) DO UPDATE SET client_id = excluded.client_id, client_use_code = excluded.client_use_code, sealed_secret = excluded.sealed_secret, set_at = excluded.set_at`,
    )
    .bind(partnerWorkspaceId, keys.clientId, keys.clientUseCode, sealed, now)
    .run();
  return { clientId: keys.clientId, clientUseCode: keys.clientUseCode, setAt: now };
}

/** Removes the partner's keys (the sealed secret with them); consents made with them then fail their next refresh. */
export async function removeOpenBankingKeys(d1: D1Database, partnerWorkspaceId: string): Promise<boolean> {
  const { meta } = await d1.prepare("DELETE FROM partner_open_banking_keys WHERE partner_workspace_id = ?").bind(partnerWorkspaceId).run();
  return meta.changes > 0;
}

export async function openBankingKeysView(d1: D1Database, partnerWorkspaceId: string): Promise<OpenBankingKeysView | null> {
  return d1
    .prepare("SELECT client_id AS clientId, client_use_code AS clientUseCode, set_at AS setAt FROM partner_open_banking_keys WHERE partner_workspace_id = ?")
    .bind(partnerWorkspaceId)
    .first<OpenBankingKeysView>();
}

interface KeysRow {
  partnerWorkspaceId: string;
  clientId: string;
  clientUseCode: string;
  sealedSecret: string;
}

/** The keys of the partner acting for `workspaceId` (an ACTIVE connection's workspace), if it set any. */
async function keysRowFor(d1: D1Database, workspaceId: string): Promise<KeysRow | null> {
  return d1
    .prepare(
      `SELECT k.partner_workspace_id AS partnerWorkspaceId, k.client_id AS clientId, k.client_use_code AS clientUseCode, k.sealed_secret AS sealedSecret
       FROM connections c JOIN partner_open_banking_keys k ON k.partner_workspace_id = c.partner_workspace_id
       WHERE c.workspace_id = ? AND c.status = 'ACTIVE'`,
    )
    .bind(workspaceId)
    .first<KeysRow>();
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

/** Moves sealed partner secrets onto the newest master key (key-rotation/rewrap.ts). */
export async function rewrapOpenBankingKeys(d1: D1Database, masterSecret: string, limit: number): Promise<{ seen: number; unreadable: number }> {
  const rows = await d1
    .prepare("SELECT partner_workspace_id AS id, sealed_secret AS sealed FROM partner_open_banking_keys WHERE json_extract(sealed_secret, '$.kv') < ? LIMIT ?")
    .bind(latestKeyVersion(masterSecret), limit)
    .all<{ id: string; sealed: string }>();
  let unreadable = 0;
  for (const row of rows.results) {
    const rewrapped = await rewrapText(masterSecret, binding(row.id), row.sealed).catch(() => undefined);
    if (rewrapped === undefined) unreadable++;
    else if (rewrapped) await d1.prepare("UPDATE partner_open_banking_keys SET sealed_secret = ? WHERE partner_workspace_id = ? AND sealed_secret = ?").bind(rewrapped, row.id, row.sealed).run();
  }
  return { seen: rows.results.length, unreadable };
}
