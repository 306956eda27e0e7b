import { withCheckDigit } from "../../contracts/business-number";
import { SANDBOX_BUSINESS_NUMBER } from "../certificates/issue";

/**
 * What a member's account does besides answering: the failures the real portal gives, one member each, so a
 * test picks a failure by the certificate (or ID) it logs in with.
 */
export type MemberBehaviour = "duplicate-login" | "session-expires" | "throttled" | "changed-answer";

/** A business with a Hometax account whose certificate is registered there (what its holder does once on the real portal). */
export interface HometaxMember {
  businessNumber: string;
  /** The 18-digit internal taxpayer id the lists are keyed by (S1, S2, S3). */
  tin: string;
  userId: string;
  name: string;
  behaviour?: MemberBehaviour;
  /** The representative's ID login: ID, password and the first 7 digits of the resident number. */
  idLogin?: { loginId: string; password: string; residentPrefix: string };
}

const member = (businessNumber: string, userId: string, name: string, extra: Partial<HometaxMember> = {}): HometaxMember => ({
  businessNumber,
  tin: `00000${businessNumber}000`.padStart(18, "0"),
  userId,
  name,
  ...extra,
});

/**
 * An accounting firm's forty clients (세무 대리 고객사), each a member with a certificate registered at the
 * portal: the firm holds all their certificates in one workspace (test/e2e/accounting-firm.test.ts).
 */
export const ACCOUNTING_FIRM_CLIENTS: readonly string[] = Array.from({ length: 40 }, (_, i) => withCheckDigit(`31481${String(11 + i * 7).padStart(4, "0")}`));

export const HOMETAX_MEMBERS: readonly HometaxMember[] = [
  member(SANDBOX_BUSINESS_NUMBER, "sandboxcorp", "(주)샌드박스상사", { idLogin: { loginId: "hometax_user", password: "pass_good", residentPrefix: "8001011" } }),
  member("2208162517", "sandboxtwo", "샌드박스물산"),
  member("1058100003", "dupuser", "중복로그인상사", { behaviour: "duplicate-login" }),
  member("1058100018", "expiring", "세션만료상사", { behaviour: "session-expires" }),
  member("1058100022", "busyuser", "과부하상사", { behaviour: "throttled" }),
  member("1058100037", "changed", "화면변경상사", { behaviour: "changed-answer" }),
  ...ACCOUNTING_FIRM_CLIENTS.map((businessNumber, i) => member(businessNumber, `client${String(i + 1).padStart(2, "0")}`, `세무고객${String(i + 1).padStart(2, "0")}상사`)),
];

/** A valid business number with no Hometax account: its certificate is not registered at the portal. */
export const NOT_REGISTERED = "1058100041";

export function memberOf(businessNumber: string): HometaxMember | undefined {
  return HOMETAX_MEMBERS.find((m) => m.businessNumber === businessNumber);
}
