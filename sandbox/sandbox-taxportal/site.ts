import { randomBytes } from "node:crypto";
import { LoginHistories } from "../history";
import type { IncomingMessage, ServerResponse } from "node:http";
import { fieldInfos } from "../../contracts/records/field-kinds";
import { toDay } from "../dates";
import { cookie, page, readJson, redirect, sendHtml, sendJson } from "../http-kit";
import { shownBusinessNumber } from "../../contracts/business-number";
import type { SandboxClock } from "../clock";
import { challengeBook, type LoginResult, SIGNED_CERTIFICATE_SCRIPT, serveSecurityModule } from "../certificates/signed-login";
import { checkIdLogin, ID_LOGIN_MESSAGES, MAINTENANCE_HOURS } from "./id-login";
import { closedNow } from "../hours";
import { PORTAL_MEMBERS } from "./members";
import { DOCUMENT_TYPES, DOCUMENTS_ORIGIN, type DocumentType, documentsOf } from "./documents";
import { TAXPORTAL_RECORDS } from "../../contracts/records/taxportal";

export const MAX_INQUIRY_DAYS = 31;
export const ROWS_PER_PAGE = 20;
const SESSION_COOKIE = "TPSESSION";
const SITE = "샌드박스 국세포털";

// Two ways in, as on the real portal. ID login: ID, password and, for the resident check, the first
// 7 digits of the resident number. Certificate login: the security module opens the key in the page and
// signs the portal's challenge; only the certificate, the signature and R (for the identity check) are sent.
const LOGIN_SCRIPT = `${SIGNED_CERTIFICATE_SCRIPT}
const error = document.getElementById("loginError");
async function signIn(body) {
  const res = await fetch("api/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await res.json();
  if (answer.next) location.href = answer.next; else error.textContent = answer.message;
}
document.getElementById("btnIdLogin").addEventListener("click", () => {
  error.textContent = "";
  signIn({ method: "ID", loginId: document.getElementById("userId").value, password: document.getElementById("userPw").value, residentPrefix: document.getElementById("residentPrefix").value });
});
document.getElementById("btnCertLogin").addEventListener("click", async () => {
  error.textContent = "";
  const fields = await signedCertificate(error);
  if (fields) signIn({ method: "CERTIFICATE", ...fields });
});
document.getElementById("btnIdLogin").dataset.ready = "1";
document.getElementById("btnCertLogin").dataset.ready = "1";`;

const INQUIRY_SCRIPT = `
const state = { page: 1 };
async function inquire(pageNo) {
  const result = document.getElementById("result");
  const error = document.getElementById("inquiryError");
  result.dataset.state = "loading"; error.textContent = "";
  const q = new URLSearchParams({ type: document.getElementById("docType").value, start: document.getElementById("startDate").value, end: document.getElementById("endDate").value, page: String(pageNo) });
  const res = await fetch("api/documents?" + q);
  if (res.status === 401) { location.href = "notice?type=session"; return; }
  const body = await res.json();
  if (!res.ok) { error.textContent = body.message; result.dataset.state = "error"; return; }
  const head = document.querySelector("#docTable thead tr");
  head.textContent = "";
  for (const column of body.columns) { const th = document.createElement("th"); th.dataset.field = column.name; th.textContent = column.title; head.append(th); }
  const tbody = document.querySelector("#docTable tbody");
  tbody.textContent = "";
  for (const row of body.rows) {
    const tr = document.createElement("tr");
    for (const cell of row) { const td = document.createElement("td"); td.textContent = cell; tr.append(td); }
    tbody.append(tr);
  }
  state.page = body.page;
  document.getElementById("count").textContent = String(body.totalCount);
  document.getElementById("pageInfo").textContent = body.totalPages === 0 ? "조회된 자료가 없습니다" : body.page + " / " + body.totalPages;
  document.getElementById("btnNext").disabled = body.page >= body.totalPages;
  result.dataset.page = String(body.page);
  result.dataset.state = "done";
}
document.getElementById("btnInquiry").addEventListener("click", () => inquire(1));
document.getElementById("btnNext").addEventListener("click", () => inquire(state.page + 1));`;

/** How the portal shows a value: amounts with thousands separators, times as "YYYY-MM-DD HH:MM:SS", blanks for nothing. */
function display(value: unknown, kind: string): string {
  if (value === null || value === undefined) return "";
  if (kind === "number") return (value as number).toLocaleString("en-US");
  if (kind === "datetime") return String(value).slice(0, 19).replace("T", " ");
  return String(value);
}

/** The sandbox tax portal: ID and certificate login and a paged inquiry of tax invoices and cash receipts. */
export function taxPortalSite(options: { clock?: SandboxClock } = {}) {
  const sessions = new Map<string, { businessNumber: string }>();
  // Keyed by business number: a member's ID login and its certificates see one history.
  const histories = new LoginHistories();
  const certificates = challengeBook({ businessNumbers: PORTAL_MEMBERS, siteName: "국세포털" });

  async function login(req: IncomingMessage, res: ServerResponse) {
    const body = await readJson(req);
    const result: LoginResult = closedNow(options.clock, MAINTENANCE_HOURS)
      ? { ok: false, message: ID_LOGIN_MESSAGES.maintenance }
      : body.method === "ID"
        ? checkIdLogin({ loginId: String(body.loginId ?? ""), password: String(body.password ?? ""), residentPrefix: String(body.residentPrefix ?? "") })
        : await certificates.check(body);
    if (!result.ok) return sendJson(res, 200, { message: result.message });
    const sid = randomBytes(16).toString("hex");
    sessions.set(sid, { businessNumber: result.businessNumber });
    sendJson(res, 200, { next: "inquiry" }, { "Set-Cookie": `${SESSION_COOKIE}=${sid}; Path=/taxportal; HttpOnly; SameSite=Lax` });
  }

  function documentsApi(session: { businessNumber: string }, url: URL, res: ServerResponse) {
    const type = url.searchParams.get("type") as DocumentType;
    const start = url.searchParams.get("start") ?? "";
    const end = url.searchParams.get("end") ?? "";
    if (!DOCUMENT_TYPES[type]) return sendJson(res, 400, { message: "조회할 자료 종류를 선택해 주십시오." });
    if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end) || start > end) return sendJson(res, 400, { message: "조회기간을 올바르게 입력해 주십시오." });
    if (start < DOCUMENTS_ORIGIN) return sendJson(res, 400, { message: `조회 가능 기간은 ${DOCUMENTS_ORIGIN} 이후입니다.` });
    if (toDay(end) - toDay(start) + 1 > MAX_INQUIRY_DAYS) return sendJson(res, 400, { message: `조회기간은 최대 ${MAX_INQUIRY_DAYS}일까지 가능합니다.` });
    const fields = fieldInfos(TAXPORTAL_RECORDS[type]).filter((f) => f.name !== "schema");
    const documents = documentsOf(session.businessNumber, type, { start, end }, histories.revisionOf(session.businessNumber));
    const totalPages = Math.ceil(documents.length / ROWS_PER_PAGE);
    const pageNo = Math.min(Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1), Math.max(1, totalPages));
    const rows = documents.slice((pageNo - 1) * ROWS_PER_PAGE, pageNo * ROWS_PER_PAGE).map((d) => fields.map((f) => display(d[f.name], f.kind)));
    sendJson(res, 200, { columns: fields.map((f) => ({ name: f.name, title: f.title })), rows, page: pageNo, totalPages, totalCount: documents.length });
  }

  return async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.replace(/^\/taxportal\/?/, "");
    const session = sessions.get(cookie(req, SESSION_COOKIE) ?? "");
    switch (path) {
      case "":
        return redirect(res, "/taxportal/login");
      case "sandbox/history":
        return histories.moveOn(req, res, url);
      case "login":
        // During maintenance the portal shows its notice instead of the login forms.
        if (closedNow(options.clock, MAINTENANCE_HOURS)) return sendHtml(res, 200, page("시스템 점검 안내", `<div id="notice" class="notice"><h1>시스템 점검 안내</h1><p>${ID_LOGIN_MESSAGES.maintenance}</p></div>`, "", SITE));
        return sendHtml(res, 200, page("국세포털 로그인", `<h1>아이디 로그인</h1>
<form onsubmit="return false"><label>아이디 <input id="userId" autocomplete="username"></label>
<label>비밀번호 <input id="userPw" type="password" autocomplete="current-password"></label>
<label>주민등록번호 앞 7자리 <input id="residentPrefix" type="password" maxlength="7" inputmode="numeric"></label>
<button id="btnIdLogin" type="button">아이디 로그인</button></form>
<h1>공동·금융인증서 로그인</h1>
<form onsubmit="return false"><label>인증서 (signCert.der, base64)<textarea id="certFile" rows="4" cols="70"></textarea></label>
<label>개인키 (signPri.key, base64)<textarea id="keyFile" rows="4" cols="70"></textarea></label>
<label>인증서 암호 <input id="certPw" type="password"></label>
<button id="btnCertLogin" type="button">인증서 로그인</button></form><p id="loginError" class="error" role="alert"></p>
<script src="/taxportal/static/security-module.js"></script>`, LOGIN_SCRIPT, SITE));
      case "static/security-module.js":
        return serveSecurityModule(res);
      case "api/challenge":
        return sendJson(res, 200, { nonce: certificates.issue() });
      case "api/login":
        return login(req, res);
      case "notice":
        return sendHtml(res, 200, page("안내", `<div id="notice" class="notice"><h1>세션 만료</h1><p>세션이 만료되었습니다. 다시 로그인해 주십시오.</p></div>`, "", SITE));
    }
    if (!session) {
      if (path.startsWith("api/")) return sendJson(res, 401, { message: "세션이 만료되었습니다." });
      return redirect(res, "/taxportal/notice?type=session");
    }
    switch (path) {
      case "inquiry":
        return sendHtml(res, 200, page("전자(세금)계산서·현금영수증 조회", `<h1>전자(세금)계산서·현금영수증 조회</h1>
<p class="member">사업자등록번호 <span id="memberBusinessNumber">${shownBusinessNumber(session.businessNumber)}</span></p>
<form onsubmit="return false"><label>자료 <select id="docType">${Object.entries(DOCUMENT_TYPES).map(([value, title]) => `<option value="${value}">${title}</option>`).join("")}</select></label>
<label>시작일 <input id="startDate" placeholder="YYYY-MM-DD"></label> <label>종료일 <input id="endDate" placeholder="YYYY-MM-DD"></label>
<button id="btnInquiry" type="button">조회하기</button></form><p class="hint">조회기간은 최대 ${MAX_INQUIRY_DAYS}일입니다.</p>
<p id="inquiryError" class="error" role="alert"></p>
<div id="result" data-state="idle"><p>총 <span id="count">0</span>건 · <span id="pageInfo"></span></p>
<table id="docTable"><thead><tr></tr></thead><tbody></tbody></table><button id="btnNext" type="button" disabled>다음</button></div>`, INQUIRY_SCRIPT, SITE));
      case "api/documents":
        return documentsApi(session, url, res);
      default:
        return sendHtml(res, 404, page("안내", `<div id="notice" class="notice"><h1>안내</h1><p>요청하신 페이지를 찾을 수 없습니다.</p></div>`, "", SITE));
    }
  };
}
