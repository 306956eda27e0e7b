/**
 * The businesses with an account at the sandbox tax portal, each having
 * registered its certificate there (what a holder does once on the real
 * portal). The portal recognises a member's certificate by its virtual ID
 * (see certificate-login.ts); any other certificate is not registered.
 */
export const PORTAL_MEMBERS: readonly string[] = ["1208800767", "2208162517"];

/** A valid business number that has no account at the portal, for trying CERT_NOT_REGISTERED_AT_PROVIDER. */
export const NOT_A_MEMBER = "3148100005";
