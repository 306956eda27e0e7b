import { SIGNING_SECRET_PREFIX } from "../../../contracts/webhooks";
import { openText, rewrapText, sealText } from "../vault/envelope";

/** After a rotation the old secret keeps signing (a second v1=) this long, so receivers can switch without losing events. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;

/** 32 random bytes in standard base64 after the prefix, the form Standard Webhooks libraries decode (contracts/webhooks.ts). */
export const newSigningSecret = (): string => `${SIGNING_SECRET_PREFIX}${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;

interface EndpointRef {
  id: string;
  workspaceId: string;
}

/** The secret opens only for its own endpoint and workspace. */
const boundTo = (endpoint: EndpointRef) => ["webhook-endpoint", endpoint.id, endpoint.workspaceId];

export const sealSigningSecret = (masterKey: string, endpoint: EndpointRef, secret: string): Promise<string> => sealText(masterKey, boundTo(endpoint), secret);

/** The sealed secret under the keyring's newest master key, or null when it already is (domain/key-rotation/rewrap.ts). */
export const rewrapSigningSecret = (masterKey: string, endpoint: EndpointRef, sealed: string): Promise<string | null> => rewrapText(masterKey, boundTo(endpoint), sealed);

/** The secrets a delivery is signed with now: the current one, and during a rotation's overlap the one it replaced. */
export async function signingSecrets(
  masterKey: string,
  endpoint: EndpointRef & { sealedSecret: string; previousSealedSecret: string | null; previousSecretExpiresAt: number | null },
  now: number,
): Promise<string[]> {
  const current = await openText(masterKey, boundTo(endpoint), endpoint.sealedSecret);
  const previousValid = endpoint.previousSealedSecret && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > now;
  return previousValid ? [current, await openText(masterKey, boundTo(endpoint), endpoint.previousSealedSecret!)] : [current];
}
