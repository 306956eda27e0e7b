/**
 * The hosted registration UI's browser script, served inline with the page.
 * It reads the one-time token from the URL fragment (never sent to any
 * server), encrypts what the end-user types to the service's public key, and
 * talks to the opening page only if that page's origin is on the session's
 * allowlist. Plain JS on purpose: it runs in the end-user's browser as is.
 */
export const UI_SCRIPT = `
const params = new URLSearchParams(location.hash.slice(1));
history.replaceState(null, "", location.pathname);
const token = params.get("token") || "";
const claimedOrigin = params.get("origin") || "";
const peer = window.opener || (window.parent !== window ? window.parent : null);
const $ = (id) => document.getElementById(id);
// Errors carry only a code and go to the claimed origin (postMessage itself drops them anywhere else);
// the registration result goes only to an origin on the session's allowlist.
let verifiedOrigin = null;
const embedder = location.ancestorOrigins && location.ancestorOrigins.length ? location.ancestorOrigins[0] : claimedOrigin;

function post(message) {
  const target = message.type === "collect:success" ? verifiedOrigin : embedder === claimedOrigin ? claimedOrigin : null;
  if (peer && target) peer.postMessage(message, target);
}
function showError(text) {
  $("formError").textContent = text;
}
function fail(text, code) {
  $("form").hidden = true;
  $("fatal").hidden = false;
  $("fatal").textContent = text;
  post({ type: "collect:error", code });
}
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");

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

function renderFields(option) {
  const box = $("fields");
  box.textContent = "";
  checks = [];
  for (const field of option.fields) {
    const id = "f_" + field.name;
    const wrap = document.createElement("div");
    wrap.className = "field";
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = field.label;
    const input = document.createElement("input");
    const isFile = field.input === "file";
    Object.assign(input, { id, name: field.name, required: field.required });
    if (isFile) input.type = "file";
    else Object.assign(input, { type: field.secret ? "password" : "text", autocomplete: field.secret ? "current-password" : "username" });
    input.setAttribute("aria-describedby", id + "_hint");
    // The credential schema's pattern, checked here (the pattern attribute's regex dialect differs from ECMAScript's).
    // A file's content is checked by the service (certificate checks), so only its presence is checked here.
    const pattern = new RegExp(field.pattern);
    const check = () => input.setCustomValidity(isFile || input.value === "" || pattern.test(input.value) ? "" : field.label + " 형식이 올바르지 않습니다.");
    input.addEventListener(isFile ? "change" : "input", check);
    checks.push(check);
    const hint = document.createElement("p");
    hint.id = id + "_hint";
    hint.className = "hint";
    hint.textContent = isFile ? "파일은 이 화면에서 읽어 암호화한 뒤 전송됩니다." : field.secret ? "입력한 값은 이 화면에서 암호화되어 전송됩니다." : "";
    wrap.append(label, input, hint);
    box.append(wrap);
  }
}

async function main() {
  const res = await fetch("/connect/api/session", { headers: { Authorization: "Bearer " + token } });
  const body = await res.json();
  if (!res.ok) return fail(body.message, body.code);
  // Only a page on the allowlist may use the session; in a frame the browser itself vouches for the embedding origin.
  if (!body.originAllowlist.includes(claimedOrigin) || embedder !== claimedOrigin) return fail("이 사이트에서는 등록 화면을 열 수 없습니다.", "ORIGIN_NOT_ALLOWED");
  verifiedOrigin = claimedOrigin;
  const session = body;
  const select = $("option");
  const optionLabel = (option) => option.providerName + (option.kind === "CERTIFICATE" ? " (공동인증서)" : " (아이디 로그인)");
  session.options.forEach((option, i) => select.append(new Option(optionLabel(option), String(i))));
  // With one option there is nothing to choose, but the user still sees where the login goes.
  $("optionRow").hidden = session.options.length < 2;
  $("optionName").hidden = session.options.length > 1;
  $("optionName").textContent = optionLabel(session.options[0]);
  select.addEventListener("change", () => renderFields(session.options[Number(select.value)]));
  renderFields(session.options[0]);
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
      const fields = Object.fromEntries(await Promise.all(option.fields.map(async (f) => {
        const input = $("f_" + f.name);
        return [f.name, f.input === "file" ? await input.files[0].text() : input.value];
      })));
      const envelope = await encrypt(session.encryptionKey, session.sessionId, fields);
      const sent = await fetch("/connect/api/registrations", {
        method: "POST",
        headers: { Authorization: "Bearer " + token, "Content-Type": "application/json" },
        body: JSON.stringify({ kind: option.kind, providerCode: option.providerCode, envelope }),
      });
      const result = await sent.json();
      if (!sent.ok) {
        if (sent.status === 410 || sent.status === 401) return fail(result.message, result.code);
        showError(result.message);
        return;
      }
      $("form").hidden = true;
      $("done").hidden = false;
      post({ type: "collect:success", sessionId: result.sessionId });
    } finally {
      $("submit").disabled = false;
    }
  });
}
$("close").addEventListener("click", () => post({ type: "collect:close" }));
main().catch(() => fail("등록 화면을 불러오지 못했습니다. 잠시 후 다시 시도해 주세요.", "INTERNAL_ERROR"));
`;
