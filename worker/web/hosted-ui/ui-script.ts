/** What the page says where it may not be used: the same words the SDK's partner sees with the error code. */
const ORIGIN_NOT_ALLOWED = "이 사이트에서는 등록 화면을 열 수 없습니다. 등록 화면을 연 페이지의 출처가 등록 세션의 originAllowlist에 없습니다.";

/** Where a person looks for the certificate files: the folders Korean certificate software saves them in. */
const NPKI_HINT = "공동인증서 파일은 보통 Windows는 C:\\Users\\<이름>\\AppData\\LocalLow\\NPKI, macOS는 ~/Library/Preferences/NPKI, 이동식 디스크(USB)는 그 디스크의 NPKI 폴더 안, 발급 기관 이름 폴더의 User 폴더에 인증서마다 하나씩 있는 폴더에 있습니다.";

/**
 * The hosted registration UI's browser script, served inline with the page.
 * Nothing in the URL is trusted: the page asks the window that opened or
 * embeds it for the one-time token with a postMessage handshake, and the
 * origin the browser reports for that reply, with the frame ancestors it
 * reports, must all be on the session's allowlist, which comes from the
 * service with the session, before any form is shown. What the
 * end-user types is encrypted to the service's public key. Plain JS on
 * purpose: it runs in the end-user's browser as is.
 */
export const UI_SCRIPT = `
// Older SDKs put the token in the fragment; it is never read, but it must not linger in the address bar or history.
history.replaceState(null, "", location.pathname);
const peer = window.opener || (window.parent !== window ? window.parent : null);
const HANDSHAKE_TIMEOUT_MS = 10000;
const $ = (id) => document.getElementById(id);
// Set by the handshake: the token, and the origin the browser reported for the reply (the only place messages go).
let token = "";
let peerOrigin = null;
let session = null;

function post(message) {
  if (peer && peerOrigin) peer.postMessage(message, peerOrigin);
}
// In a frame, the SDK sizes the frame to this page (it would otherwise stay 560 px, 연결하기 below its fold): the
// height goes, as every message, only to the origin the handshake named, once the session allows it to embed the page.
function reportHeight() {
  if (window.parent === window) return;
  let sent = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height !== sent) post({ type: "collect:resize", height: (sent = height) });
  }).observe(document.body);
}
function showError(text) {
  $("formError").textContent = text;
}
function fail(text, code) {
  $("loading").hidden = true;
  $("form").hidden = true;
  $("fatal").hidden = false;
  $("fatal").textContent = text;
  if (code) post({ type: "collect:error", code });
}
function apiHeaders(extra) {
  return { Authorization: "Bearer " + token, ...extra };
}
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
// A picked file travels as its bytes in standard base64 (certificate files are binary DER), built in chunks
// so that no call gets more arguments than an engine takes.
async function fileBase64(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

async function encrypt(keyInfo, sessionId, payload) {
  const enc = new TextEncoder();
  const serverKey = await crypto.subtle.importKey("jwk", keyInfo.jwk, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const eph = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const shared = await crypto.subtle.deriveBits({ name: "ECDH", public: serverKey }, eph.privateKey, 256);
  const hkdf = await crypto.subtle.importKey("raw", shared, "HKDF", false, ["deriveKey"]);
  const key = await crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: enc.encode("collect-registration-v1:" + sessionId) }, hkdf, { name: "AES-GCM", length: 256 }, false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: enc.encode(sessionId) }, key, enc.encode(JSON.stringify(payload)));
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", eph.publicKey);
  return { kid: keyInfo.kid, epk: { kty, crv, x, y }, iv: b64url(iv), ct: b64url(ct) };
}

let checks = [];

// KFTC's answer (the callback's query) as the callback page in the window this page opened posts it, at this origin:
// { query }, or { ended: "closed" } once that window is closed without one, or { ended: "cancelled" } when the person
// stops waiting here (취소 closes the window). Only that window counts: the person who consented at KFTC is then the
// one looking at this page, and a callback that reached another browser completes nothing (openbanking.md §1.6).
// While it waits the page says so, and 창 다시 열기 brings the window back in front of this one, where it hid.
function callbackFrom(consentWindow) {
  $("consentWait").hidden = false;
  return new Promise((resolve) => {
    const onMessage = (event) => {
      if (event.source !== consentWindow || event.origin !== location.origin) return;
      if (!event.data || event.data.type !== "collect:open-banking-callback" || typeof event.data.query !== "string") return;
      done({ query: event.data.query });
    };
    const reopen = () => consentWindow.focus();
    const cancel = () => {
      consentWindow.close();
      done({ ended: "cancelled" });
    };
    const watch = setInterval(() => consentWindow.closed && done({ ended: "closed" }), 1000);
    function done(outcome) {
      window.removeEventListener("message", onMessage);
      $("reopenConsent").removeEventListener("click", reopen);
      $("cancelConsent").removeEventListener("click", cancel);
      clearInterval(watch);
      $("consentWait").hidden = true;
      resolve(outcome);
    }
    window.addEventListener("message", onMessage);
    $("reopenConsent").addEventListener("click", reopen);
    $("cancelConsent").addEventListener("click", cancel);
  });
}

async function consent(option) {
  // Opened at the click, before any await, so the browser does not take it for an unwanted popup.
  const consentWindow = window.open("about:blank", "_blank");
  if (!consentWindow) return showError("새 창을 열지 못했습니다. 팝업 차단을 풀고 다시 눌러 주세요.");
  const res = await fetch("/connect/api/open-banking/authorizations", { method: "POST", headers: apiHeaders({ "Content-Type": "application/json" }), body: JSON.stringify({ providerCode: option.providerCode }) });
  const started = await res.json();
  if (!res.ok) {
    consentWindow.close();
    if (res.status === 410 || res.status === 401) return fail(started.message, started.code);
    return showError(started.message);
  }
  consentWindow.location.href = started.authorizationUrl;
  const answer = await callbackFrom(consentWindow);
  // Nothing reached the service: the session stays as it was, and the same button starts over.
  if (answer.ended === "cancelled") return showError("동의를 취소했습니다. 아직 연결되지 않았습니다. 연결하려면 오픈뱅킹에서 동의하기를 다시 눌러 주세요.");
  if (answer.ended === "closed") return showError("동의 창이 닫혔습니다. 동의를 끝내지 않았다면 다시 눌러 주세요.");
  // This page completes the consent, naming the consent text it showed: the record says what the person saw.
  const sent = await fetch("/connect/api/open-banking/completions", { method: "POST", headers: apiHeaders({ "Content-Type": "application/json" }), body: JSON.stringify({ callbackQuery: answer.query, consentTextVersion: session.consentText.version }) });
  consentWindow.close();
  const outcome = await sent.json();
  if (!sent.ok) {
    if (sent.status === 410 || sent.status === 401) return fail(outcome.message, outcome.code);
    return showError(outcome.message);
  }
  if (outcome.state !== "CONNECTED") return showError(outcome.message + " (" + outcome.code + ")");
  $("form").hidden = true;
  $("done").hidden = false;
  post({ type: "collect:success", sessionId: session.sessionId });
}

// The login method the person chose, where the option's provider takes several (hometax: ID login or 간편인증).
let method = null;
const HELP = {
  PROVIDER_LOGIN: "기관 사이트에서 쓰는 아이디와 비밀번호를 입력해 주세요. 연결하기를 누르면 기관에 한 번 로그인해 확인한 뒤 연결합니다.",
  SIMPLE_AUTH: "간편인증 앱에 등록된 이름, 생년월일, 휴대폰 번호를 입력해 주세요. 연결하기를 누르면 휴대폰의 앱으로 인증 요청이 가고, 승인하면 연결됩니다.",
};
const APP_NAMES = { kakao: "카카오톡", naver: "네이버", pass: "PASS", toss: "토스" };
const fieldsOf = (option) => (method ? method.fields : option.fields);

function renderMethods(option) {
  const box = $("methods");
  box.textContent = "";
  method = option.methods ? option.methods[0] : null;
  box.hidden = !option.methods;
  if (!option.methods) return renderFields(option);
  const legend = document.createElement("legend");
  legend.textContent = "로그인 방식";
  box.append(legend);
  option.methods.forEach((m, i) => {
    const label = document.createElement("label");
    label.className = "method";
    const radio = Object.assign(document.createElement("input"), { type: "radio", name: "method", value: m.authMethod, checked: i === 0, id: "m_" + m.authMethod });
    radio.addEventListener("change", () => {
      method = m;
      renderFields(option);
    });
    label.append(radio, " " + m.name);
    box.append(label);
  });
  renderFields(option);
}

function renderFields(option) {
  const box = $("fields");
  box.textContent = "";
  checks = [];
  $("methodHeader").hidden = !method;
  if (method) {
    $("methodHeader").textContent = method.name;
    const help = document.createElement("p");
    help.className = "hint";
    help.id = "methodHelp";
    help.textContent = HELP[method.authMethod] || "";
    box.append(help);
  }
  // What the login will be used to collect: the consent the session asks of the user.
  $("consent").textContent = "수집할 자료: " + option.schemas.map((s) => s.title).join(", ");
  // A consent (Open Banking): nothing to type here; the person agrees on the institution's own page, in a new window.
  $("submit").textContent = option.consent ? "오픈뱅킹에서 동의하기" : "연결하기";
  if (option.consent) {
    const note = document.createElement("p");
    note.className = "hint";
    note.textContent = "금융결제원 오픈뱅킹 화면이 새 창으로 열립니다. 그 화면에서 조회할 계좌를 고르고 동의하면 이 화면에 결과가 나타납니다. 아이디나 비밀번호는 이 서비스에 전달되지 않습니다.";
    box.append(note);
  }
  for (const field of fieldsOf(option)) {
    const id = "f_" + field.name;
    const wrap = document.createElement("div");
    wrap.className = "field";
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = field.required ? field.label : field.label + " (선택)";
    const isFile = field.input === "file";
    const isSelect = field.input === "select";
    const input = document.createElement(isSelect ? "select" : "input");
    Object.assign(input, { id, name: field.name, required: field.required });
    if (isSelect) {
      if (!field.required) input.append(new Option("선택 안 함", ""));
      for (const choice of field.options || []) input.append(new Option(choice.label, choice.value));
    } else if (isFile) input.type = "file";
    else Object.assign(input, { type: field.secret ? "password" : "text", autocomplete: field.secret ? "current-password" : "username" });
    input.setAttribute("aria-describedby", id + "_hint");
    // The credential schema's pattern, checked here (the pattern attribute's regex dialect differs from ECMAScript's).
    // A file's content is checked by the service (certificate checks), so only its presence is checked here.
    const pattern = new RegExp(field.pattern);
    const check = () => input.setCustomValidity(isFile || input.value === "" || pattern.test(input.value) ? "" : field.label + " 형식이 올바르지 않습니다.");
    input.addEventListener(isFile || isSelect ? "change" : "input", check);
    checks.push(check);
    const hint = document.createElement("p");
    hint.id = id + "_hint";
    hint.className = "hint";
    hint.textContent = isFile ? "파일은 이 화면에서 읽어 암호화한 뒤 전송됩니다." + (option.kind === "CERTIFICATE" ? " " + ${JSON.stringify(NPKI_HINT)} : "") : field.secret ? "입력한 값은 이 화면에서 암호화되어 전송됩니다." : "";
    // Said before the first try, where the institution's rule is known: a locked login has to be freed at the institution.
    const lockAfter = (method ? method.authMethod === "PROVIDER_LOGIN" : option.kind === "PROVIDER_LOGIN") && option.lockAfterWrongPasswords;
    if (field.name === "password" && lockAfter) hint.textContent += " 비밀번호를 " + lockAfter + "회 틀리면 기관이 로그인을 잠급니다. 잠기면 기관에서 풀어야 합니다.";
    if (isSelect) hint.textContent = "";
    wrap.append(label, input, hint);
    box.append(wrap);
  }
}

/**
 * Asks the opener (a popup) or parent (an iframe) for the token. The hello carries only a fresh nonce, so it may go
 * to any origin; the SDK answers only a window on the service's origin, and the browser tells us who answered.
 */
function handshake() {
  return new Promise((resolve, reject) => {
    if (!peer) return reject(new Error("no opener"));
    const nonce = b64url(crypto.getRandomValues(new Uint8Array(16)));
    const timer = setTimeout(() => {
      window.removeEventListener("message", onReply);
      reject(new Error("no answer"));
    }, HANDSHAKE_TIMEOUT_MS);
    function onReply(event) {
      const data = event.data;
      if (event.source !== peer || !data || data.type !== "collect:token" || data.nonce !== nonce || typeof data.token !== "string") return;
      window.removeEventListener("message", onReply);
      clearTimeout(timer);
      resolve({ origin: event.origin, token: data.token });
    }
    window.addEventListener("message", onReply);
    peer.postMessage({ type: "collect:hello", nonce }, "*");
  });
}

// How long the page waits before it says the check is taking long, and how many checks it asks before it stops asking.
const SLOW_NOTICE_MS = 8000;
const MAX_CHECKS = 40;
let countdown = null;
let slowNotice = null;

function showProgress(text, until) {
  clearInterval(countdown);
  clearTimeout(slowNotice);
  $("progress").hidden = false;
  $("progressText").textContent = text;
  $("countdown").textContent = "";
  $("form").setAttribute("aria-busy", "true");
  if (until) {
    const tick = () => {
      const left = Math.max(0, Math.round((Date.parse(until) - Date.now()) / 1000));
      $("countdown").textContent = "남은 시간 " + Math.floor(left / 60) + "분 " + String(left % 60).padStart(2, "0") + "초";
    };
    tick();
    countdown = setInterval(tick, 1000);
  } else {
    // An institution slower than usual: say so, rather than leave a spinner without a word.
    slowNotice = setTimeout(() => ($("progressText").textContent = "기관의 응답이 늦어지고 있습니다. 확인이 끝날 때까지 이 창을 닫지 말고 기다려 주세요."), SLOW_NOTICE_MS);
  }
}
function hideProgress() {
  clearInterval(countdown);
  clearTimeout(slowNotice);
  $("progress").hidden = true;
  $("form").removeAttribute("aria-busy");
}

// A submission's or a check's answer: connected only once the service stored the login the institution let in; while
// the check goes on (or the holder's phone is asked) the page asks again; a refusal is shown in place, with its reason.
async function follow(res) {
  for (let asked = 0; ; asked++) {
    const result = await res.json();
    if (!res.ok) {
      hideProgress();
      if (res.status === 410 && result.code !== "REGISTRATION_SESSION_NOT_USABLE") return fail(result.message, result.code);
      if (res.status === 401) return fail(result.message, result.code);
      return showError(result.message);
    }
    if (result.state === "CONNECTED") {
      hideProgress();
      $("form").hidden = true;
      $("done").hidden = false;
      return post({ type: "collect:success", sessionId: result.sessionId });
    }
    if (asked >= MAX_CHECKS) {
      hideProgress();
      return showError("기관에서 확인이 아직 끝나지 않았습니다. 아직 연결되지 않았으니 잠시 후 연결하기를 다시 눌러 주세요.");
    }
    if (result.state === "AWAITING_HOLDER") {
      const app = APP_NAMES[result.awaiting.provider] || "간편인증 앱";
      showProgress("휴대폰의 " + app + "에서 인증 요청을 확인해 주세요. 승인하면 이 화면이 저절로 넘어갑니다.", result.awaiting.until);
    } else showProgress("기관에서 로그인을 확인하고 있습니다. 아직 연결되지 않았습니다. 잠시만 기다려 주세요…", null);
    // The check waits for the phone on the service's side (long poll); a check still being made is asked again soon.
    if (result.state === "CHECKING") await new Promise((resolve) => setTimeout(resolve, 2000));
    res = await fetch("/connect/api/registrations/check", { method: "POST", headers: apiHeaders() });
  }
}

async function main() {
  let answer;
  try {
    answer = await handshake();
  } catch {
    return fail("등록 화면을 연 사이트를 확인하지 못했습니다. 이용하던 사이트에서 다시 열어 주세요.");
  }
  token = answer.token;
  peerOrigin = answer.origin;
  const res = await fetch("/connect/api/session", { headers: apiHeaders() });
  const body = await res.json();
  if (!res.ok) return fail(body.message, body.code);
  session = body;
  // The opener or parent, and every frame ancestor the browser reports (opaque "null" ones name no origin; browsers
  // without ancestorOrigins report none), must be on the session's allowlist: the browser says where the page is, the
  // session says where it may be, and nothing the requests carry decides it.
  const ancestors = location.ancestorOrigins ? Array.from(location.ancestorOrigins).filter((origin) => origin !== "null") : [];
  if (![peerOrigin, ...ancestors].every((origin) => session.originAllowlist.includes(origin))) return fail(${JSON.stringify(ORIGIN_NOT_ALLOWED)}, "REGISTRATION_SESSION_INVALID_ORIGIN");
  reportHeight();
  const select = $("option");
  const optionLabel = (option) => option.providerName + (option.consent ? " (본인 동의)" : option.kind === "CERTIFICATE" ? " (공동인증서)" : option.methods ? "" : " (아이디 로그인)");
  // Who asks for the login, in the partner's own words (checked when it named itself: domain/partners/name.ts).
  if (session.partnerName) {
    $("requester").textContent = session.partnerName + "의 요청으로 연결합니다.";
    $("requester").hidden = false;
  }
  // The consent text the record will name (its version goes back with the submission), shown before anything is sent.
  for (const text of session.consentText.paragraphs) {
    const paragraph = document.createElement("p");
    paragraph.className = "hint";
    paragraph.textContent = text;
    $("consentText").append(paragraph);
  }
  $("consentText").dataset.version = session.consentText.version;
  session.options.forEach((option, i) => select.append(new Option(optionLabel(option), String(i))));
  // With one option there is nothing to choose, but the user still sees where the login goes.
  $("optionRow").hidden = session.options.length < 2;
  $("optionName").hidden = session.options.length > 1;
  $("optionName").textContent = optionLabel(session.options[0]);
  select.addEventListener("change", () => renderMethods(session.options[Number(select.value)]));
  renderMethods(session.options[0]);
  $("loading").hidden = true;
  $("form").hidden = false;
  $("form").addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    checks.forEach((check) => check());
    if (!$("form").reportValidity()) return;
    const option = session.options[Number(select.value)];
    $("submit").disabled = true;
    try {
      if (option.consent) return await consent(option);
      const shown = fieldsOf(option);
      const fields = Object.fromEntries(await Promise.all(shown.map(async (f) => {
        const input = $("f_" + f.name);
        return [f.name, f.input === "file" ? await fileBase64(input.files[0]) : input.value];
      })));
      // A file's pattern bounds its size: an empty or oversized file is refused here, before anything is sent.
      const badFile = shown.find((f) => f.input === "file" && !new RegExp(f.pattern).test(fields[f.name]));
      if (badFile) return showError(badFile.label + " 파일을 읽을 수 없습니다. 파일을 확인해 주세요.");
      // Optional fields left blank (PASS's carrier for another app) are not sent.
      for (const f of shown) if (!f.required && fields[f.name] === "") delete fields[f.name];
      const envelope = await encrypt(session.encryptionKey, session.sessionId, fields);
      const body = { kind: option.kind, providerCode: option.providerCode, consentTextVersion: session.consentText.version, envelope };
      if (method) body.authMethod = method.authMethod;
      showProgress("기관에서 로그인을 확인하고 있습니다…", null);
      await follow(await fetch("/connect/api/registrations", { method: "POST", headers: apiHeaders({ "Content-Type": "application/json" }), body: JSON.stringify(body) }));
    } finally {
      $("submit").disabled = false;
    }
  });
}
$("close").addEventListener("click", () => post({ type: "collect:close" }));
main().catch(() => fail("등록 화면을 불러오지 못했습니다. 잠시 후 다시 시도해 주세요.", "INTERNAL_ERROR"));
`;
