import type { KeyRights } from "./rights";

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
