/** A fresh keyring for REGISTRATION_E2E_KEYS: one ECDH P-256 private JWK with its key id. */
export async function newRegistrationKeyring(kid = `k${Date.now().toString(36)}`): Promise<string> {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return JSON.stringify([{ kid, kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d }]);
}
