import { randomBytes } from "node:crypto";
import { LoginHistories } from "../history";
import type { IncomingMessage, ServerResponse } from "node:http";
import { toDay } from "../dates";
import { kstDate } from "../../contracts/korean-time";
import { cookie, readJson, redirect, sendHtml, sendJson } from "../http-kit";
import { challengeBook, serveSecurityModule } from "../certificates/signed-login";
import { approvalsOf, byApprovalTime, viewDay } from "./approvals";
import { CERTIFICATE_CUSTOMERS } from "./certificate-customers";
import { CARD_BEHAVIOURS, type CardBehaviour, MAINTENANCE_HOURS, MONTH_END_HOURS, POPUP_NOTICE, WRONG_PASSWORD } from "./behaviours";
import type { SandboxClock } from "../clock";
import { closedNow } from "../hours";
import { APPROVALS_ORIGIN, cardsOf } from "./cards";
import { shownApproval, shownCard } from "./display";
import { approvalsPage, loginPage, mainPage, noticePage, passwordChangePage, passwordReminderPage, securityPage } from "./pages";

/** The most days one inquiry may span: a year takes five. */
export const MAX_INQUIRY_DAYS = 90;
export const ROWS_PER_BATCH = 30;
const SESSION_COOKIE = "CARDSESSION";
const NOTICE_COOKIE = "CARDNOTICE";

/**
 * Where a logged-in session is: the pages issuers put between the password
 * and the service come first, and the site refuses everything else until
 * they are answered.
 */
type Stage = "password-reminder" | "password-expired" | "security" | "ready";
const STAGE_PAGES: Record<Exclude<Stage, "ready">, string> = { "password-reminder": "password-reminder", "password-expired": "password-change", security: "security" };

interface Session {
  loginId: string;
  stage: Stage;
  behaviour: CardBehaviour | null;
}

const isDate = (s: string) => /^\d{8}$/.test(s);
const isoDate = (s: string) => `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6)}`;

/** The sandbox card issuer: ID or business-certificate login, the pages after it, a card list and a script-driven approval history. */
/** The sandbox's clock: with one, the issuer closes for its daily maintenance and its month-end batch (behaviours.ts). */
export function cardSite(options: { clock?: SandboxClock } = {}) {
  const sessions = new Map<string, Session>();
  const histories = new LoginHistories();
  const certificates = challengeBook({ businessNumbers: Object.keys(CERTIFICATE_CUSTOMERS), siteName: "법인카드 홈페이지" });

  async function login(req: IncomingMessage, res: ServerResponse) {
    const { custId, custPw } = await readJson(req);
    const loginId = String(custId ?? "");
    const password = String(custPw ?? "");
    const code = password.startsWith("error_") ? password.slice(6) : "";
    const behaviour: CardBehaviour | null = Object.hasOwn(CARD_BEHAVIOURS, code) ? CARD_BEHAVIOURS[code as keyof typeof CARD_BEHAVIOURS] : null;
    if (!loginId || (password !== "pass_good" && !behaviour)) return sendJson(res, 200, { message: WRONG_PASSWORD });
    if (behaviour?.kind === "notice") return sendJson(res, 200, { next: `notice?type=${behaviour.notice}` });
    startSession(res, loginId, behaviour);
  }

  /** Business-certificate login: the certificate's business is the customer; the pages after the password follow as for the ID. */
  async function certificateLogin(req: IncomingMessage, res: ServerResponse) {
    const result = await certificates.check(await readJson(req));
    if (!result.ok) return sendJson(res, 200, { message: result.message });
    startSession(res, CERTIFICATE_CUSTOMERS[result.businessNumber]!, null);
  }

  /** Where every login method ends once it knows the customer: a session held on the pages after the password. */
  function startSession(res: ServerResponse, loginId: string, behaviour: CardBehaviour | null) {
    const sid = randomBytes(16).toString("hex");
    const stage: Stage = behaviour?.kind === "password-expired" ? "password-expired" : "password-reminder";
    sessions.set(sid, { loginId, stage, behaviour });
    sendJson(res, 200, { next: STAGE_PAGES[stage] }, { "Set-Cookie": `${SESSION_COOKIE}=${sid}; Path=/card; HttpOnly; SameSite=Lax` });
  }

  /** Answers of the pages between login and service. */
  async function answer(session: Session, path: string, req: IncomingMessage, res: ServerResponse) {
    const { choice } = await readJson(req);
    if (path === "api/password-reminder" && session.stage === "password-reminder" && choice === "later") {
      session.stage = "security";
      return sendJson(res, 200, { next: "security" });
    }
    if (path === "api/security" && session.stage === "security" && choice === "skip" && session.behaviour?.kind !== "security-required") {
      session.stage = "ready";
      return sendJson(res, 200, { next: "main" });
    }
    if (path === "api/password-change") return sendJson(res, 200, { message: "샌드박스카드에서는 비밀번호를 변경할 수 없습니다. 고객센터(1588-0000)로 문의해 주십시오." });
    sendJson(res, 403, { message: "먼저 안내 화면의 내용을 확인해 주십시오." });
  }

  function notices(req: IncomingMessage, res: ServerResponse) {
    const hideToken = `${POPUP_NOTICE.id}.${kstDate().replace(/-/g, "")}`;
    sendJson(res, 200, { notices: cookie(req, NOTICE_COOKIE) === hideToken ? [] : [POPUP_NOTICE], hideToken });
  }

  function approvals(session: Session, url: URL, req: IncomingMessage, res: ServerResponse) {
    if (session.behaviour?.kind === "session-expired") {
      sessions.delete(cookie(req, SESSION_COOKIE) ?? "");
      return sendJson(res, 401, { message: "로그인 시간이 만료되었습니다." });
    }
    const q = (name: string) => url.searchParams.get(name) ?? "";
    const cards = cardsOf(session.loginId);
    const chosen = q("card") === "ALL" ? cards : cards.filter((c) => c.key === q("card"));
    if (chosen.length === 0) return sendJson(res, 400, { message: "조회할 카드를 선택해 주십시오." });
    if (!isDate(q("from")) || !isDate(q("to")) || q("from") > q("to")) return sendJson(res, 400, { message: "조회기간을 올바르게 입력해 주십시오." });
    const range = { start: isoDate(q("from")), end: isoDate(q("to")) };
    if (range.start < APPROVALS_ORIGIN) return sendJson(res, 400, { message: `조회 가능 기간은 ${APPROVALS_ORIGIN.replace(/-/g, ".")} 이후입니다.` });
    if (toDay(range.end) - toDay(range.start) + 1 > MAX_INQUIRY_DAYS) return sendJson(res, 400, { message: `조회기간은 최대 ${MAX_INQUIRY_DAYS}일까지 가능합니다.` });
    const area = q("area");
    const lines = chosen
      .flatMap((c) => approvalsOf(c, range, viewDay(histories.revisionOf(session.loginId))))
      .filter((line) => area === "ALL" || line.overseas === (area === "OVERSEAS"))
      // Newest first, as issuers list them.
      .sort((a, b) => byApprovalTime(b, a));
    const key = q("nextKey") ? Buffer.from(q("nextKey"), "base64url").toString() : "0";
    const offset = Number(key);
    if (!/^\d+$/.test(key) || offset > lines.length) return sendJson(res, 400, { message: "다음 조회 정보가 올바르지 않습니다. 처음부터 다시 조회해 주십시오." });
    const end = offset + ROWS_PER_BATCH;
    sendJson(res, 200, {
      rows: lines.slice(offset, end).map(shownApproval),
      totalCount: lines.length,
      nextKey: end < lines.length ? Buffer.from(String(end)).toString("base64url") : null,
    });
  }

  return async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.replace(/^\/card\/?/, "");
    const sid = cookie(req, SESSION_COOKIE) ?? "";
    const session = sessions.get(sid);
    if ((path === "api/login" || path === "api/cert-login") && (closedNow(options.clock, MAINTENANCE_HOURS) || closedNow(options.clock, MONTH_END_HOURS))) return sendJson(res, 200, { next: "notice?type=maintenance" });
    switch (path) {
      case "":
        return redirect(res, "/card/login");
      case "sandbox/history":
        return histories.moveOn(req, res, url);
      case "login":
        return sendHtml(res, 200, loginPage());
      case "api/login":
        return login(req, res);
      case "api/challenge":
        return sendJson(res, 200, { nonce: certificates.issue() });
      case "api/cert-login":
        return certificateLogin(req, res);
      case "static/security-module.js":
        return serveSecurityModule(res);
      case "notice":
        return sendHtml(res, 200, noticePage(url.searchParams.get("type")));
    }
    if (!session) {
      if (path.startsWith("api/")) return sendJson(res, 401, { message: "로그인 시간이 만료되었습니다." });
      return redirect(res, "/card/notice?type=session");
    }
    if (path === "logout") {
      sessions.delete(sid);
      return redirect(res, "/card/login");
    }
    if (path === "api/password-reminder" || path === "api/security" || path === "api/password-change") return answer(session, path, req, res);
    if (session.stage !== "ready") {
      const stagePage = STAGE_PAGES[session.stage];
      // "지금 변경" on the reminder leads to the change form.
      const allowed = path === stagePage || (session.stage === "password-reminder" && path === "password-change");
      if (!allowed) {
        if (path.startsWith("api/")) return sendJson(res, 403, { message: "먼저 안내 화면의 내용을 확인해 주십시오." });
        return redirect(res, `/card/${stagePage}`);
      }
    }
    switch (path) {
      case "password-reminder":
        return sendHtml(res, 200, passwordReminderPage());
      case "password-change":
        return sendHtml(res, 200, passwordChangePage(session.stage === "password-expired"));
      case "security":
        return sendHtml(res, 200, securityPage(session.behaviour?.kind === "security-required"));
      case "main":
        return sendHtml(res, 200, mainPage());
      case "approvals":
        return sendHtml(res, 200, approvalsPage(MAX_INQUIRY_DAYS));
      case "api/notices":
        return notices(req, res);
      case "api/cards":
        return sendJson(res, 200, { cards: cardsOf(session.loginId).map(shownCard) });
      case "api/approvals":
        return approvals(session, url, req, res);
      default:
        return sendHtml(res, 404, noticePage(null));
    }
  };
}
