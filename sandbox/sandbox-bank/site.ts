import { randomBytes } from "node:crypto";
import { LoginHistories } from "../history";
import { PageChanges } from "../page-changes";
import type { IncomingMessage, ServerResponse } from "node:http";
import { showAmount } from "../amounts";
import { toDay } from "../dates";
import { kstDate } from "../../contracts/korean-time";
import { cookie, page, readJson, redirect, sendHtml, sendJson } from "../http-kit";
import { INQUIRY_BEHAVIOURS, LOGIN_BEHAVIOURS, MAINTENANCE_HOURS, NOTICES, type LoginNotice } from "./behaviours";
import type { SandboxClock } from "../clock";
import { closedNow } from "../hours";
import { type Account, accountsOf, currentBalance, LEDGER_ORIGIN, ledgerOf } from "./ledger";

/** The most days one inquiry may span, as on real Korean bank sites. */
export const MAX_INQUIRY_DAYS = 31;
export const ROWS_PER_PAGE = 20;
const SESSION_COOKIE = "SBSESSION";

interface Session {
  loginId: string;
  /** The error_<CODE> this login plays out during inquiries, if any. */
  fault: string | null;
}

const TYPE_LABELS: Record<Account["accountType"], string> = { CHECKING: "입출금", INSTALLMENT_SAVINGS: "적금", FOREIGN: "외화" };

export interface BankSiteOptions {
  /** How long a "hanging" inquiry takes before the server gives up. */
  hangMs: number;
  /** The sandbox's clock: with one, the bank closes for its daily maintenance (MAINTENANCE_HOURS). */
  clock?: SandboxClock;
}

const LOGIN_SCRIPT = `
document.getElementById("btnLogin").addEventListener("click", async () => {
  const error = document.getElementById("loginError");
  error.textContent = "";
  const res = await fetch("api/login", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ userId: document.getElementById("userId").value, userPw: document.getElementById("userPw").value }) });
  const body = await res.json();
  if (body.next) location.href = body.next; else error.textContent = body.message;
});`;

const ACCOUNTS_SCRIPT = `
(async () => {
  const res = await fetch("api/accounts");
  if (res.status === 401) { location.href = "notice?type=session"; return; }
  const { accounts } = await res.json();
  const body = document.querySelector("#accountList tbody");
  for (const a of accounts) {
    const tr = document.createElement("tr");
    tr.dataset.account = a.number;
    for (const [cls, text] of [["type", a.typeLabel], ["product", a.product], ["alias", a.alias ?? ""], ["number", a.formatted], ["currency", a.currency], ["balance num", a.balanceText], ["available num", a.availableText]]) {
      const td = document.createElement("td"); td.className = cls; td.textContent = text; tr.append(td);
    }
    body.append(tr);
  }
  document.getElementById("accountList").dataset.state = "done";
})();`;

/**
 * The bank's page changes (sandbox/page-changes.ts): `transactions-redesign` renders the transaction table's cells
 * under new class names (a known page with content the adapter cannot read), and its inquiry answers rows under new
 * field names, as a redesign ships its page and its API together: a page opened before the change meets it at its next
 * inquiry. `login-interstitial` sends a login to a security notice page the adapter has
 * never seen, instead of the accounts.
 */
export const BANK_PAGE_CHANGES = ["transactions-redesign", "login-interstitial"] as const;
type BankPageChange = (typeof BANK_PAGE_CHANGES)[number];

const CELL_CLASSES = ["at", "desc", "out num", "in num", "balance num", "branch", "ref"];
const REDESIGNED_CELL_CLASSES = ["tx-date", "tx-memo", "tx-debit amt", "tx-credit amt", "tx-balance amt", "tx-branch", "tx-no"];

/** A row of the inquiry's answer as its cells in table order, under the fields of before the redesign and after it. */
const ROW_CELLS = "[r.at, r.desc, r.out, r.in, r.balance, r.branch, r.ref]";
const REDESIGNED_ROW_CELLS = "[r.txDate, r.memo, r.debit, r.credit, r.balanceAfter, r.branchName, r.txNo]";

const transactionsScript = (cellClasses: readonly string[], rowCells: string) => `
const CELLS = ${JSON.stringify(cellClasses)};
const state = { page: 1 };
async function inquire(pageNo) {
  const result = document.getElementById("txResult");
  const error = document.getElementById("inquiryError");
  result.dataset.state = "loading"; error.textContent = "";
  const q = new URLSearchParams({ acct: document.getElementById("acctSelect").value, start: document.getElementById("startDate").value, end: document.getElementById("endDate").value, page: String(pageNo) });
  const res = await fetch("api/transactions?" + q);
  if (res.status === 401) { location.href = "notice?type=session"; return; }
  let body;
  try { body = await res.json(); } catch { body = { message: "일시적인 오류가 발생했습니다. [E9999]" }; }
  if (!res.ok) { error.textContent = body.message; result.dataset.state = "error"; return; }
  const tbody = document.querySelector("#txTable tbody");
  tbody.textContent = "";
  for (const r of body.rows) {
    const tr = document.createElement("tr");
    for (const [i, text] of (${rowCells}).entries()) {
      if (text === undefined) continue;
      const td = document.createElement("td"); td.className = CELLS[i]; td.textContent = text; tr.append(td);
    }
    tbody.append(tr);
  }
  state.page = body.page;
  document.getElementById("pageInfo").textContent = body.totalPages === 0 ? "조회 내역이 없습니다" : body.page + " / " + body.totalPages;
  document.getElementById("txCount").textContent = String(body.totalCount);
  document.getElementById("btnNext").disabled = body.page >= body.totalPages;
  result.dataset.page = String(body.page);
  result.dataset.state = "done";
}
document.getElementById("btnInquiry").addEventListener("click", () => inquire(1));
document.getElementById("btnNext").addEventListener("click", () => inquire(state.page + 1));`;

const formatMoney = (amount: number, currency: string) => showAmount(Math.abs(amount), currency);
const formatSigned = showAmount;

/** The sandbox bank: an internet-banking site with script-driven login, account list and paged transaction inquiry. */
export function bankSite(options: BankSiteOptions) {
  const sessions = new Map<string, Session>();
  // Ground truth of the service's behaviour, not of the bank's data: how often each login signed in.
  const logins = new Map<string, number>();
  const histories = new LoginHistories();
  const pageChanges = new PageChanges<BankPageChange>(BANK_PAGE_CHANGES);
  const sessionOf = (req: IncomingMessage) => sessions.get(cookie(req, SESSION_COOKIE) ?? "");

  async function login(req: IncomingMessage, res: ServerResponse) {
    const { userId, userPw } = await readJson(req);
    const loginId = String(userId ?? "");
    const password = String(userPw ?? "");
    const code = password.startsWith("error_") ? password.slice(6) : null;
    const behaviour = code ? LOGIN_BEHAVIOURS[code] : undefined;
    if (!loginId || (password !== "pass_good" && !(code && (behaviour || INQUIRY_BEHAVIOURS[code])))) {
      return sendJson(res, 200, { ok: false, message: LOGIN_BEHAVIOURS.LOGIN_FAILED!.message });
    }
    if (behaviour?.message) return sendJson(res, 200, { ok: false, message: behaviour.message });
    if (behaviour?.notice) return sendJson(res, 200, { ok: false, next: `notice?type=${behaviour.notice}` });
    const sid = randomBytes(16).toString("hex");
    sessions.set(sid, { loginId, fault: code });
    logins.set(loginId, (logins.get(loginId) ?? 0) + 1);
    sendJson(res, 200, { ok: true, next: pageChanges.has(loginId, "login-interstitial") ? "security-notice" : "accounts" }, { "Set-Cookie": `${SESSION_COOKIE}=${sid}; Path=/bank; HttpOnly; SameSite=Lax` });
  }

  function accountsApi(session: Session, res: ServerResponse) {
    const accounts = accountsOf(session.loginId).map((a) => {
      const balance = currentBalance(a, kstDate(), histories.revisionOf(session.loginId));
      return { number: a.accountNumber, formatted: a.accountNumberFormatted, typeLabel: TYPE_LABELS[a.accountType], product: a.productName, alias: a.displayName, currency: a.currencyCode, balanceText: formatSigned(balance, a.currencyCode), availableText: formatSigned(balance, a.currencyCode) };
    });
    sendJson(res, 200, { accounts });
  }

  async function transactionsApi(session: Session, url: URL, req: IncomingMessage, res: ServerResponse) {
    const fault = session.fault ? INQUIRY_BEHAVIOURS[session.fault] : undefined;
    if (fault === "session-expired") {
      sessions.delete(cookie(req, SESSION_COOKIE) ?? "");
      return sendJson(res, 401, { message: "세션이 만료되었습니다." });
    }
    if (fault === "throttled") return sendJson(res, 429, { message: "단시간에 조회 요청이 너무 많습니다. 잠시 후 다시 조회해 주십시오. [E4290]" });
    if (fault === "delayed") return sendJson(res, 503, { message: "현재 거래량 증가로 조회 처리가 지연되고 있습니다. 잠시 후 다시 이용해 주십시오." });
    if (fault === "server-error") return sendJson(res, 500, { message: "일시적인 시스템 오류가 발생했습니다. [E9999]" });
    if (fault === "hang") {
      await new Promise((r) => setTimeout(r, options.hangMs));
      return sendJson(res, 504, { message: "응답 시간이 초과되었습니다." });
    }
    const account = accountsOf(session.loginId).find((a) => a.accountNumber === url.searchParams.get("acct"));
    const start = url.searchParams.get("start") ?? "";
    const end = url.searchParams.get("end") ?? "";
    if (!account) return sendJson(res, 400, { message: "조회할 계좌를 선택해 주십시오." });
    if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end) || start > end) return sendJson(res, 400, { message: "조회기간을 올바르게 입력해 주십시오." });
    if (start < LEDGER_ORIGIN) return sendJson(res, 400, { message: `조회 가능 기간은 ${LEDGER_ORIGIN.replace(/-/g, ".")} 이후입니다.` });
    if (toDay(end) - toDay(start) + 1 > MAX_INQUIRY_DAYS) return sendJson(res, 400, { message: `조회기간은 최대 ${MAX_INQUIRY_DAYS}일까지 가능합니다.` });
    const entries = ledgerOf(account, kstDate(), histories.revisionOf(session.loginId)).filter((e) => e.date >= start && e.date <= end);
    const totalPages = Math.ceil(entries.length / ROWS_PER_PAGE);
    const pageNo = Math.min(Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1), Math.max(1, totalPages));
    const rows = entries.slice((pageNo - 1) * ROWS_PER_PAGE, pageNo * ROWS_PER_PAGE).map((e) => ({
      at: `${e.date.replace(/-/g, ".")} ${e.time}`,
      desc: e.description,
      out: e.amount < 0 ? formatMoney(e.amount, account.currencyCode) : "",
      in: e.amount > 0 ? formatMoney(e.amount, account.currencyCode) : "",
      balance: formatSigned(e.balance, account.currencyCode),
      branch: e.branch,
      ref: e.identifier,
    }));
    // A broken upstream: cells go missing and numbers turn to placeholders.
    const served = fault === "malformed" ? rows.map((r) => ({ ...r, in: undefined, out: "###", balance: undefined, branch: undefined, ref: undefined })) : rows;
    const shaped = pageChanges.has(session.loginId, "transactions-redesign") ? served.map((r) => ({ txDate: r.at, memo: r.desc, debit: r.out, credit: r.in, balanceAfter: r.balance, branchName: r.branch, txNo: r.ref })) : served;
    sendJson(res, 200, { rows: shaped, page: pageNo, totalPages, totalCount: entries.length });
  }

  function accountOptions(session: Session) {
    return accountsOf(session.loginId)
      .map((a) => `<option value="${a.accountNumber}">${a.accountNumberFormatted} ${a.productName}</option>`)
      .join("");
  }

  return async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.replace(/^\/bank\/?/, "");
    const session = sessionOf(req);
    if (path === "api/login" && closedNow(options.clock, MAINTENANCE_HOURS)) return sendJson(res, 200, { ok: false, next: "notice?type=maintenance" });
    switch (path) {
      case "":
        return redirect(res, "/bank/login");
      case "login":
        return sendHtml(res, 200, page("샌드박스은행 로그인", `<h1>개인·기업 인터넷뱅킹 로그인</h1>
<form onsubmit="return false"><label>아이디 <input id="userId" autocomplete="username"></label>
<label>비밀번호 <input id="userPw" type="password" autocomplete="current-password"></label>
<button id="btnLogin" type="button">로그인</button></form><p id="loginError" class="error" role="alert"></p>`, LOGIN_SCRIPT));
      case "api/login":
        return login(req, res);
      case "sandbox/logins": {
        const loginId = url.searchParams.get("loginId") ?? "";
        return sendJson(res, 200, { loginId, logins: logins.get(loginId) ?? 0 });
      }
      case "sandbox/history":
        return histories.moveOn(req, res, url);
      case "sandbox/page-changes":
        return pageChanges.answer(req, res, url);
      case "notice": {
        const type = url.searchParams.get("type") ?? "";
        const notice = type === "session" ? { title: "세션 만료", text: "세션이 만료되었습니다. 보안을 위해 다시 로그인해 주십시오." } : NOTICES[type as LoginNotice];
        return sendHtml(res, 200, page(notice?.title ?? "안내", `<div id="notice" class="notice"><h1>${notice?.title ?? "안내"}</h1><p>${notice?.text ?? "요청하신 페이지를 찾을 수 없습니다."}</p></div>`));
      }
    }
    if (!session) {
      if (path.startsWith("api/")) return sendJson(res, 401, { message: "세션이 만료되었습니다." });
      return redirect(res, "/bank/notice?type=session");
    }
    switch (path) {
      case "security-notice": {
        // A page of the kind banks put between login and the accounts: it names the customer and an account.
        const [first] = accountsOf(session.loginId);
        return sendHtml(res, 200, page("보안 안내", `<h1>보안카드 재발급 안내</h1>
<p class="greeting">김하늘 고객님, 고객님의 계좌 ${first?.accountNumberFormatted ?? ""}에 연결된 보안카드의 유효기간이 지났습니다.</p>
<p>최근 거래 금액 1,250,000원 이상의 이체에는 OTP가 필요합니다. 연락처 010-2345-6789로 안내 문자를 보냈습니다.</p>
<p><a href="accounts">확인 후 계속</a></p>`));
      }
      case "accounts":
        return sendHtml(res, 200, page("계좌 조회", `<h1>전체계좌조회</h1><table id="accountList"><thead><tr><th>구분</th><th>상품명</th><th>별칭</th><th>계좌번호</th><th>통화</th><th>잔액</th><th>출금가능금액</th></tr></thead><tbody></tbody></table>
<p><a href="transactions">거래내역조회</a></p>`, ACCOUNTS_SCRIPT));
      case "api/accounts":
        return accountsApi(session, res);
      case "transactions":
        return sendHtml(res, 200, page("거래내역조회", `<h1>거래내역조회</h1>
<form onsubmit="return false"><label>계좌 <select id="acctSelect">${accountOptions(session)}</select></label>
<label>조회시작일 <input id="startDate" type="text" placeholder="YYYY-MM-DD"></label> <label>조회종료일 <input id="endDate" type="text" placeholder="YYYY-MM-DD"></label>
<button id="btnInquiry" type="button">조회</button></form><p class="hint">조회기간은 최대 ${MAX_INQUIRY_DAYS}일입니다.</p>
<p id="inquiryError" class="error" role="alert"></p>
<div id="txResult" data-state="idle"><p>총 <span id="txCount">0</span>건 · <span id="pageInfo"></span></p>
<table id="txTable"><thead><tr><th>거래일시</th><th>적요</th><th>찾으신금액</th><th>맡기신금액</th><th>거래후잔액</th><th>거래점</th><th>거래번호</th></tr></thead><tbody></tbody></table>
<button id="btnNext" type="button" disabled>다음</button></div>`, (pageChanges.has(session.loginId, "transactions-redesign") ? transactionsScript(REDESIGNED_CELL_CLASSES, REDESIGNED_ROW_CELLS) : transactionsScript(CELL_CLASSES, ROW_CELLS))));
      case "api/transactions":
        return transactionsApi(session, url, req, res);
      case "logout":
        sessions.delete(cookie(req, SESSION_COOKIE) ?? "");
        return redirect(res, "/bank/login");
      default:
        return sendHtml(res, 404, page("안내", `<div id="notice" class="notice"><h1>안내</h1><p>요청하신 페이지를 찾을 수 없습니다.</p></div>`));
    }
  };
}
