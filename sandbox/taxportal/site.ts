import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { base64Decode } from "../../collectors/lib/base64url";
import { KEY_ALGORITHM, readCertificate, SIGNATURE_ALGORITHM } from "../../collectors/certificates/sandbox-format";
import { fieldInfos } from "../../collectors/records/field-kinds";
import { toDay } from "../dates";
import { cookie, page, readJson, redirect, sendHtml, sendJson } from "../http-kit";
import { DOCUMENT_TYPES, DOCUMENTS_ORIGIN, type DocumentType, documentsOf } from "./documents";

export const MAX_INQUIRY_DAYS = 31;
export const ROWS_PER_PAGE = 20;
const SESSION_COOKIE = "TPSESSION";
const SITE = "샌드박스 국세포털";

/** Certificates whose holder never registered them with the portal (their common name says so). */
const isRegistered = (commonName: string) => !commonName.includes("미등록");

// Certificate login as portals do it: the key never leaves the browser; it signs the server's challenge.
const LOGIN_SCRIPT = `
const b64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const unarmor = (text) => JSON.parse(new TextDecoder().decode(b64(text.replace(/-----[A-Z ]+-----/g, "").replace(/\\s+/g, ""))));
document.getElementById("btnCertLogin").addEventListener("click", async () => {
  const error = document.getElementById("loginError");
  error.textContent = "";
  let signingKey;
  try {
    const sealed = unarmor(document.getElementById("keyFile").value);
    const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(document.getElementById("certPw").value), "PBKDF2", false, ["deriveKey"]);
    const aes = await crypto.subtle.deriveKey({ name: "PBKDF2", hash: sealed.kdf.hash, salt: b64(sealed.kdf.salt), iterations: sealed.kdf.iterations }, base, { name: "AES-GCM", length: 256 }, false, ["decrypt"]);
    const pkcs8 = await crypto.subtle.decrypt({ name: "AES-GCM", iv: b64(sealed.cipher.iv) }, aes, b64(sealed.data));
    signingKey = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
  } catch {
    error.textContent = "인증서 암호가 일치하지 않거나 인증서 파일을 읽을 수 없습니다.";
    return;
  }
  const { nonce } = await (await fetch("api/challenge")).json();
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, signingKey, new TextEncoder().encode(nonce)));
  const res = await fetch("api/login", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ certificate: document.getElementById("certFile").value, nonce, signature: btoa(String.fromCharCode(...signature)) }) });
  const body = await res.json();
  if (body.next) location.href = body.next; else error.textContent = body.message;
});`;

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

/** The sandbox tax portal: certificate login and a paged inquiry of tax invoices and cash receipts. */
export function taxPortalSite() {
  const sessions = new Map<string, { businessNumber: string }>();
  const challenges = new Map<string, number>();

  async function login(req: IncomingMessage, res: ServerResponse) {
    const { certificate, nonce, signature } = await readJson(req);
    const issuedAt = challenges.get(String(nonce));
    challenges.delete(String(nonce));
    const body = readCertificate(String(certificate ?? ""));
    const signatureBytes = base64Decode(String(signature ?? ""));
    if (!body || !issuedAt || Date.now() - issuedAt > 60_000 || !signatureBytes) return sendJson(res, 200, { message: "전자서명 검증에 실패했습니다. 인증서를 확인해 주십시오." });
    const key = await crypto.subtle.importKey("jwk", body.publicKey, KEY_ALGORITHM, false, ["verify"]);
    if (!(await crypto.subtle.verify(SIGNATURE_ALGORITHM, key, signatureBytes, new TextEncoder().encode(String(nonce))))) {
      return sendJson(res, 200, { message: "전자서명 검증에 실패했습니다. 인증서를 확인해 주십시오." });
    }
    if (Date.parse(body.notAfter) <= Date.now()) return sendJson(res, 200, { message: "인증서의 유효기간이 만료되었습니다. 인증서를 갱신해 주십시오." });
    if (!isRegistered(body.subject.commonName)) return sendJson(res, 200, { message: "등록되지 않은 인증서입니다. 국세포털에 인증서를 먼저 등록해 주십시오." });
    if (!body.subject.businessNumber) return sendJson(res, 200, { message: "사업자용 인증서가 아닙니다. 사업자 인증서로 로그인해 주십시오." });
    const sid = randomBytes(16).toString("hex");
    sessions.set(sid, { businessNumber: body.subject.businessNumber });
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
    const fields = fieldInfos(DOCUMENT_TYPES[type].record).filter((f) => f.name !== "schema");
    const documents = documentsOf(session.businessNumber, type, { start, end });
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
      case "login":
        return sendHtml(res, 200, page("국세포털 로그인", `<h1>공동·금융인증서 로그인</h1>
<form onsubmit="return false"><label>인증서 파일 (signCert)<textarea id="certFile" rows="4" cols="70"></textarea></label>
<label>개인키 파일 (signPri.key)<textarea id="keyFile" rows="4" cols="70"></textarea></label>
<label>인증서 암호 <input id="certPw" type="password"></label>
<button id="btnCertLogin" type="button">인증서 로그인</button></form><p id="loginError" class="error" role="alert"></p>`, LOGIN_SCRIPT, SITE));
      case "api/challenge": {
        const nonce = randomBytes(24).toString("base64url");
        challenges.set(nonce, Date.now());
        return sendJson(res, 200, { nonce });
      }
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
<form onsubmit="return false"><label>자료 <select id="docType">${Object.entries(DOCUMENT_TYPES).map(([value, t]) => `<option value="${value}">${t.title}</option>`).join("")}</select></label>
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
