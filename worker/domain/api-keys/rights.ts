import { ApiError, fieldError } from "../../platform/errors/api-error";
import { isoTime } from "../../platform/lib/iso-time";

/** What a key may do beyond the data routes, and until when. */
export interface KeyRights {
  /** May list, issue and revoke the workspace's keys. */
  canManageKeys: boolean;
  /** Epoch ms; null: never expires. */
  expiresAt: number | null;
}

/** Who an API request acts as: its key, the workspace it acts in, and the key's own rights. */
export interface Principal {
  apiKeyId: string;
  /** The workspace the request acts in: the key's own, or for a partner the selected business's connection workspace. */
  workspaceId: string;
  /** The key's own workspace, whichever business a partner selects: the one whose request log has the request. */
  keyWorkspaceId: string;
  isPartner: boolean;
  /** The partner's connection the request acts through, once a business is selected (X-SVC-Business, or a body's connectionId). */
  connectionId?: string;
  /** The calling key's own rights: key management, and its expiry (which keys it issues may not outlive). */
  rights: KeyRights;
}

/**
 * The rights of a key issued by `issuer`: what was asked, never more than
 * the issuer holds and never outliving it. Without an asked expiry the new
 * key expires with its issuer, so a short-lived key cannot mint a permanent one.
 */
export function issuedRights(issuer: KeyRights, asked: { canManageKeys?: boolean; expiresAt?: number }): KeyRights {
  const canManageKeys = asked.canManageKeys ?? false;
  if (canManageKeys && !issuer.canManageKeys) throw new ApiError("ADMIN_ACTION_FORBIDDEN");
  const expiresAt = asked.expiresAt ?? issuer.expiresAt;
  if (issuer.expiresAt !== null && expiresAt !== null && expiresAt > issuer.expiresAt) {
    const message = `새 키는 발급하는 키보다 오래 유효할 수 없습니다. expiresAt을 ${isoTime(issuer.expiresAt)} 이전으로 보내 주세요.`;
    throw new ApiError("INVALID_PARAM_FORMAT", { message, fieldErrors: [fieldError("body.expiresAt", "INVALID_PARAM_FORMAT", message)] });
  }
  return { canManageKeys, expiresAt };
}
