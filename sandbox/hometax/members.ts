import { withCheckDigit } from "../../contracts/business-number";
import { SANDBOX_BUSINESS_NUMBER } from "../certificates/issue";

/**
 * What a member's account does besides answering: the failures the real portal gives, one member each, so a
 * test picks a failure by the certificate (or ID) it logs in with.
 */
export type MemberBehaviour =
  | "duplicate-login"
  | "session-expires"
  | "throttled"
  | "changed-answer"
  // Lists that move between pages (sheet A2, lists.ts): a page repeating the one before, a total that changes, an approval number twice.
  | "repeated-page"
  | "count-changes"
  | "duplicate-approval"
  // The invoice text download refused (`권한이 없는 화면입니다.`) while the JSON pages answer, or answered in a layout no source shows.
  | "download-refused"
  | "download-changed";

/** A business with a Hometax account whose certificate is registered there (what its holder does once on the real portal). */
export interface HometaxMember {
  businessNumber: string;
  /** The 18-digit internal taxpayer id the lists are keyed by (S1, S2, S3). */
  tin: string;
  userId: string;
  name: string;
  behaviour?: MemberBehaviour;
  /**
   * What the sessionMap says over the member's own (`tin` = `cnvrTin` = the business): a login whose business must be
   * chosen by the portal script's rule (sheet A5; collectors/hometax/business-choice.ts).
   */
  session?: Record<string, string>;
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

/** A tin of the same login that is not the business's: a personal one, or another registration's. */
const otherTin = (businessNumber: string, tag: string) => `9${tag}0000${businessNumber}00`;
const masked = "800101*******";

/**
 * Logins whose sub-site business is chosen by the rule of sheet A5: an individual who switched to the business
 * (`cnvrTin`), a business holding several registrations viewing another (`haboInqrStat` N), a transferred-business
 * login (`txfrBmanLgnYn` Y keeps `tin`), and an individual with no business chosen (refused).
 */
function choosing(nine: string, userId: string, name: string, session: (businessNumber: string, tin: string) => Record<string, string>): HometaxMember {
  const base = member(withCheckDigit(nine), userId, name);
  return { ...base, session: session(base.businessNumber, base.tin) };
}

export const BUSINESS_CHOICES: readonly HometaxMember[] = [
  choosing("105820004", "switched", "사업자전환상사", (bn, tin) => ({ tin: otherTin(bn, "1"), cnvrTin: tin, userClsfCd: "01", haboInqrStat: "Y", txfrBmanLgnYn: "N", txprDscmNo: masked })),
  choosing("105820005", "severalreg", "복수사업장상사", (bn, tin) => ({ tin: otherTin(bn, "2"), cnvrTin: tin, userClsfCd: "02", haboInqrStat: "N", txfrBmanLgnYn: "N" })),
  choosing("105820006", "transferred", "양수사업자상사", (bn) => ({ cnvrTin: otherTin(bn, "3"), userClsfCd: "02", txfrBmanLgnYn: "Y" })),
  choosing("105820007", "nobusiness", "사업자미선택", (bn) => ({ tin: otherTin(bn, "4"), cnvrTin: otherTin(bn, "4"), userClsfCd: "01", txprDscmNo: masked })),
];

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
  member(withCheckDigit("105820001"), "repeatpage", "페이지반복상사", { behaviour: "repeated-page" }),
  member(withCheckDigit("105820002"), "movingcount", "건수변동상사", { behaviour: "count-changes" }),
  member(withCheckDigit("105820003"), "dupapproval", "승인번호중복상사", { behaviour: "duplicate-approval" }),
  member(withCheckDigit("105820011"), "nodownload", "다운로드거부상사", { behaviour: "download-refused" }),
  member(withCheckDigit("105820012"), "newlayout", "다운로드변경상사", { behaviour: "download-changed" }),
  ...BUSINESS_CHOICES,
  ...ACCOUNTING_FIRM_CLIENTS.map((businessNumber, i) => member(businessNumber, `client${String(i + 1).padStart(2, "0")}`, `세무고객${String(i + 1).padStart(2, "0")}상사`)),
];

/** A valid business number with no Hometax account: its certificate is not registered at the portal. */
export const NOT_REGISTERED = "1058100041";

export function memberOf(businessNumber: string): HometaxMember | undefined {
  return HOMETAX_MEMBERS.find((m) => m.businessNumber === businessNumber);
}
