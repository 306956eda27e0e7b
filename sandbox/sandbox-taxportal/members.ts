/**
 * The businesses with an account at the sandbox tax portal, each having
 * registered its certificate there (what a holder does once on the real
 * portal). The portal recognises a member's certificate by its virtual ID
 * (see sandbox/certificates/signed-login.ts); any other certificate is not registered.
 */
export const PORTAL_MEMBERS: readonly string[] = ["1208800767", "2208162517"];

/** A valid business number that has no account at the portal, for trying CERT_NOT_REGISTERED_AT_PROVIDER. */
export const NOT_A_MEMBER = "3148100005";

/** A portal account signed in to by ID: the representative's ID, password and the first 7 digits of their resident number. */
export interface IdMember {
  loginId: string;
  password: string;
  residentPrefix: string;
  businessNumber: string;
}

/** The members' ID logins (one per member business), the ground truth of the ID login. */
export const ID_MEMBERS: readonly IdMember[] = [
  { loginId: "tax_user", password: "pass_good", residentPrefix: "8001011", businessNumber: "1208800767" },
  { loginId: "tax_user2", password: "pass_good", residentPrefix: "7505152", businessNumber: "2208162517" },
];
