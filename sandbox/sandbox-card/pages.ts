import { SIGNED_CERTIFICATE_SCRIPT } from "../certificates/signed-login";
import { page } from "../http-kit";
import { NOTICES, PASSWORD_EXPIRED, type CardNotice, SECURITY_REQUIRED } from "./behaviours";

const SITE = "샌드박스카드 법인서비스";

const STYLE = `<style>.guide{border:1px solid #99a;padding:24px;background:#f7f8fc}.tabs{list-style:none;padding:0;display:flex;gap:8px}.tabs li{padding:6px 14px;border:1px solid #99a}.tabs li.on{background:#0b3d91;color:#fff}
.layer{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;z-index:100}.layer[hidden]{display:none}.layer-box{background:#fff;padding:24px;width:440px}</style>`;

const cardPage = (title: string, body: string, script = "") => page(title, `${STYLE}${body}`, script, SITE);

// Posts the page's JSON to the site and follows where the site sends it next, or shows its message.
const POST_AND_FOLLOW = `
async function postAndFollow(path, body, errorId) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await res.json();
  if (answer.next) location.href = answer.next; else document.getElementById(errorId).textContent = answer.message;
}`;

// The certificate tab signs the site's one-time challenge with the security module, as the tax portal's login does.
const LOGIN_SCRIPT = `${POST_AND_FOLLOW}${SIGNED_CERTIFICATE_SCRIPT}
const tabs = { id: document.getElementById("idLoginForm"), cert: document.getElementById("certLoginForm") };
for (const tab of document.querySelectorAll(".tabs li")) tab.addEventListener("click", () => {
  for (const other of document.querySelectorAll(".tabs li")) other.classList.toggle("on", other === tab);
  tabs.id.hidden = tab.dataset.tab !== "id";
  tabs.cert.hidden = tab.dataset.tab !== "cert";
});
document.getElementById("btnIdLogin").addEventListener("click", () => {
  document.getElementById("loginError").textContent = "";
  postAndFollow("api/login", { custId: document.getElementById("custId").value, custPw: document.getElementById("custPw").value }, "loginError");
});
document.getElementById("btnCertLogin").addEventListener("click", async () => {
  const error = document.getElementById("loginError");
  error.textContent = "";
  const fields = await signedCertificate(error);
  if (fields) postAndFollow("api/cert-login", fields, "loginError");
});
document.getElementById("btnCertLogin").dataset.ready = "1";`;

/** The login page: an ID tab and a business-certificate tab, both ending in the same session. */
export const loginPage = () =>
  cardPage("법인카드 로그인", `<h1>법인카드 서비스 로그인</h1>
<ul class="tabs"><li class="on" data-tab="id" id="tabIdLogin">아이디 로그인</li><li data-tab="cert" id="tabCertLogin">인증서 로그인</li></ul>
<form id="idLoginForm" onsubmit="return false"><label>아이디 <input id="custId" autocomplete="username"></label>
<label>비밀번호 <input id="custPw" type="password" autocomplete="current-password"></label>
<button id="btnIdLogin" type="button">로그인</button></form>
<form id="certLoginForm" onsubmit="return false" hidden><p>사업자용 공동인증서로 로그인합니다.</p>
<label>인증서 (signCert.der, base64)<textarea id="certFile" rows="4" cols="70"></textarea></label>
<label>개인키 (signPri.key, base64)<textarea id="keyFile" rows="4" cols="70"></textarea></label>
<label>인증서 암호 <input id="certPw" type="password"></label>
<button id="btnCertLogin" type="button">인증서 로그인</button></form>
<p id="loginError" class="error" role="alert"></p>
<script src="/card/static/security-module.js"></script>`, LOGIN_SCRIPT);

export const passwordReminderPage = () =>
  cardPage("비밀번호 변경 안내", `<div id="pwReminder" class="guide"><h1>비밀번호 변경 안내</h1>
<p>고객님께서는 비밀번호를 변경하신 지 90일이 지났습니다. 소중한 정보를 보호하기 위해 비밀번호를 주기적으로 변경해 주십시오.</p>
<button id="btnChangeNow" type="button">지금 변경</button> <button id="btnLater" type="button">다음에 변경</button></div><p id="guideError" class="error"></p>`,
  `${POST_AND_FOLLOW}
document.getElementById("btnChangeNow").addEventListener("click", () => { location.href = "password-change"; });
document.getElementById("btnLater").addEventListener("click", () => postAndFollow("api/password-reminder", { choice: "later" }, "guideError"));`);

/** The change form; when the password has expired the page says so and there is no way around it. */
export const passwordChangePage = (expired: boolean) =>
  cardPage("비밀번호 변경", `${expired ? `<div id="notice" class="notice"><h1>${PASSWORD_EXPIRED.title}</h1><p>${PASSWORD_EXPIRED.text}</p></div>` : "<h1>비밀번호 변경</h1>"}
<form onsubmit="return false"><label>현재 비밀번호 <input id="oldPw" type="password"></label><label>새 비밀번호 <input id="newPw" type="password"></label>
<button id="btnChange" type="button">변경</button></form><p id="changeResult" class="error"></p>`,
  `${POST_AND_FOLLOW}
document.getElementById("btnChange").addEventListener("click", () => postAndFollow("api/password-change", {}, "changeResult"));`);

const SECURITY_PROGRAMS = `<table><thead><tr><th>보안프로그램</th><th>설명</th><th>상태</th></tr></thead><tbody>
<tr><td>TouchEn nxKey</td><td>키보드 보안</td><td>미설치</td></tr><tr><td>AhnLab Safe Transaction</td><td>개인 방화벽</td><td>미설치</td></tr>
<tr><td>Veraport</td><td>통합 설치 관리</td><td>미설치</td></tr></tbody></table>`;

export const securityPage = (required: boolean) =>
  cardPage("보안프로그램 설치 안내", `${required ? `<div id="notice" class="notice"><h1>${SECURITY_REQUIRED.title}</h1><p>${SECURITY_REQUIRED.text}</p></div>` : ""}
<div id="securityGuide" class="guide"><h1>보안프로그램 설치 안내</h1><p>안전한 서비스 이용을 위해 아래 보안프로그램 설치를 권장합니다.</p>${SECURITY_PROGRAMS}
<button id="btnInstall" type="button">통합 설치</button>${required ? "" : ` <button id="btnSkipInstall" type="button">설치하지 않고 이용하기</button>`}</div>
<p id="guideError" class="error"></p>`,
  `${POST_AND_FOLLOW}
document.getElementById("btnInstall").addEventListener("click", () => { document.getElementById("guideError").textContent = "샌드박스에서는 설치 파일을 제공하지 않습니다."; });
document.getElementById("btnSkipInstall")?.addEventListener("click", () => postAndFollow("api/security", { choice: "skip" }, "guideError"));`);

export const noticePage = (type: string | null) => {
  const notice = Object.hasOwn(NOTICES, type ?? "") ? NOTICES[type as CardNotice] : { title: "안내", text: "요청하신 페이지를 찾을 수 없습니다." };
  return cardPage(notice.title, `<div id="notice" class="notice"><h1>${notice.title}</h1><p>${notice.text}</p><p><a href="login">로그인</a></p></div>`);
};

const NOTICE_LAYER = `<div id="noticeLayer" class="layer" hidden><div class="layer-box" role="dialog"><h2 id="noticeTitle"></h2><p id="noticeBody"></p>
<label><input type="checkbox" id="noticeHideToday"> 오늘 하루 보지 않기</label> <button id="noticeClose" type="button">닫기</button></div></div>`;

// Every logged-in page asks for pop-up notices before it does anything else, as issuers' pages do.
const NOTICE_SCRIPT = `
async function showNotices() {
  const res = await fetch("api/notices");
  if (res.status === 401) { location.href = "notice?type=session"; return false; }
  const { notices, hideToken } = await res.json();
  if (notices.length === 0) return true;
  document.getElementById("noticeTitle").textContent = notices[0].title;
  document.getElementById("noticeBody").textContent = notices[0].body;
  const layer = document.getElementById("noticeLayer");
  layer.hidden = false;
  document.getElementById("noticeClose").addEventListener("click", () => {
    if (document.getElementById("noticeHideToday").checked) document.cookie = "CARDNOTICE=" + hideToken + "; path=/card";
    layer.hidden = true;
  });
  return true;
}`;

const MAIN_SCRIPT = `${NOTICE_SCRIPT}
(async () => {
  if (!(await showNotices())) return;
  const res = await fetch("api/cards");
  if (res.status === 401) { location.href = "notice?type=session"; return; }
  const { cards } = await res.json();
  const body = document.querySelector("#cardList tbody");
  for (const c of cards) {
    const tr = document.createElement("tr");
    for (const [cls, text] of [["name", c.name], ["number", c.number], ["kind", c.kind], ["holder", c.holder], ["valid", c.validThru], ["state", c.state]]) {
      const td = document.createElement("td"); td.className = cls; td.textContent = text; tr.append(td);
    }
    body.append(tr);
  }
  document.getElementById("cardList").dataset.state = "done";
})();`;

export const mainPage = () =>
  cardPage("보유카드 조회", `${NOTICE_LAYER}<h1>보유카드 조회</h1>
<table id="cardList"><thead><tr><th>카드명</th><th>카드번호</th><th>구분</th><th>사용자</th><th>유효기간</th><th>상태</th></tr></thead><tbody></tbody></table>
<p><a id="menuApprovals" href="approvals">승인내역 조회</a></p>`, MAIN_SCRIPT);

const APPROVAL_COLUMNS: [string, string][] = [
  ["at", "승인일시"], ["card", "카드번호"], ["approvalNo", "승인번호"], ["merchant", "가맹점명"], ["bizNo", "사업자번호"], ["bizType", "업종"],
  ["rep", "대표자"], ["phone", "전화번호"], ["address", "주소"], ["area", "구분"], ["method", "결제방법"], ["amount", "승인금액"],
  ["local", "현지금액"], ["vat", "부가세"], ["status", "상태"], ["stage", "매입"], ["tid", "거래고유번호"],
];

// The site's own paging: 더보기 appends the next rows under a continuation key the server hands out.
const APPROVALS_SCRIPT = `${NOTICE_SCRIPT}
const COLUMNS = ${JSON.stringify(APPROVAL_COLUMNS.map(([key]) => key))};
const state = { query: null, nextKey: null, batch: 0 };
async function search(more) {
  const result = document.getElementById("result");
  const error = document.getElementById("inquiryError");
  const tbody = document.querySelector("#approvalTable tbody");
  result.dataset.state = "loading"; error.textContent = "";
  if (!more) {
    state.query = { card: document.getElementById("cardSelect").value, area: document.getElementById("areaSelect").value,
      from: document.getElementById("startDate").value.replace(/\\./g, ""), to: document.getElementById("endDate").value.replace(/\\./g, "") };
    state.batch = 0; tbody.textContent = "";
  }
  const q = new URLSearchParams(state.query);
  if (more) q.set("nextKey", state.nextKey);
  const res = await fetch("api/approvals?" + q);
  if (res.status === 401) { location.href = "notice?type=session"; return; }
  let body;
  try { body = await res.json(); } catch { body = { message: "일시적인 오류가 발생했습니다." }; }
  if (!res.ok) { error.textContent = body.message; result.dataset.state = "error"; return; }
  for (const row of body.rows) {
    const tr = document.createElement("tr");
    for (const key of COLUMNS) { const td = document.createElement("td"); td.className = key; td.textContent = row[key]; tr.append(td); }
    tbody.append(tr);
  }
  state.nextKey = body.nextKey;
  state.batch += 1;
  document.getElementById("totalCount").textContent = String(body.totalCount);
  document.getElementById("btnMore").hidden = !body.nextKey;
  result.dataset.batch = String(state.batch);
  result.dataset.state = "done";
}
(async () => {
  if (!(await showNotices())) return;
  const res = await fetch("api/cards");
  if (res.status === 401) { location.href = "notice?type=session"; return; }
  const select = document.getElementById("cardSelect");
  for (const c of (await res.json()).cards) select.add(new Option(c.name + " " + c.number, c.key));
  document.getElementById("btnInquiry").addEventListener("click", () => search(false));
  document.getElementById("btnMore").addEventListener("click", () => search(true));
  document.getElementById("btnInquiry").disabled = false;
})();`;

export const approvalsPage = (maxInquiryDays: number) =>
  cardPage("승인내역 조회", `${NOTICE_LAYER}<h1>승인내역 조회</h1>
<form onsubmit="return false"><label>카드 <select id="cardSelect"><option value="ALL">전체 카드</option></select></label>
<label>구분 <select id="areaSelect"><option value="ALL">전체</option><option value="DOMESTIC">국내</option><option value="OVERSEAS">해외</option></select></label>
<label>조회기간 <input id="startDate" placeholder="YYYY.MM.DD"></label> ~ <input id="endDate" placeholder="YYYY.MM.DD">
<button id="btnInquiry" type="button" disabled>조회</button></form><p class="hint">조회기간은 최대 ${maxInquiryDays}일입니다. 최근 승인 건부터 보여 드립니다.</p>
<p id="inquiryError" class="error" role="alert"></p>
<div id="result" data-state="idle" data-batch="0"><p>총 <span id="totalCount">0</span>건</p>
<table id="approvalTable"><thead><tr>${APPROVAL_COLUMNS.map(([, title]) => `<th>${title}</th>`).join("")}</tr></thead><tbody></tbody></table>
<button id="btnMore" type="button" hidden>더보기</button></div>`, APPROVALS_SCRIPT);
