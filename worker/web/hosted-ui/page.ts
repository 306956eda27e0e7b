import { UI_SCRIPT } from "./ui-script";

/**
 * No third-party resources, and only the service's own API. Any page may
 * frame it (`frame-ancestors *`): the session's origin allowlist is not known
 * when the page loads, because the token reaches the page only later, in the
 * opener's postMessage reply. The handshake is what keeps other sites out
 * (see docs/registration-sessions.md).
 */
export const REGISTRATION_PAGE_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *";

/** The hosted registration page: Korean, keyboard- and screen-reader-friendly, no third-party resources. */
export const REGISTRATION_PAGE = `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>기관 계정 연결</title>
<style>
  body { font-family: system-ui, "Nanum Gothic", sans-serif; margin: 0; padding: 24px; color: #1d2433; background: #fff; }
  h1 { font-size: 1.25rem; margin: 0 0 4px; }
  .lead { color: #4a5365; margin: 0 0 20px; font-size: .9rem; }
  .field { margin-bottom: 14px; }
  label { display: block; font-weight: 600; margin-bottom: 4px; }
  input, select { width: 100%; box-sizing: border-box; padding: 10px; font-size: 1rem; border: 1px solid #b8c0cf; border-radius: 6px; }
  input:focus, select:focus, button:focus { outline: 3px solid #7aa7ff; outline-offset: 1px; }
  input:user-invalid { border-color: #c0392b; }
  .provider { font-weight: 600; margin: 0 0 14px; }
  .hint { font-size: .8rem; color: #5b6475; margin: 4px 0 0; }
  .error { color: #b3261e; font-weight: 600; min-height: 1.2em; }
  button { padding: 11px 16px; font-size: 1rem; border-radius: 6px; border: 0; cursor: pointer; }
  #submit { background: #1456c7; color: #fff; width: 100%; }
  #close { background: none; color: #4a5365; position: absolute; top: 12px; right: 12px; }
  .methods { border: 1px solid #b8c0cf; border-radius: 6px; margin: 0 0 14px; padding: 8px 12px; }
  .method { display: inline-flex; align-items: center; gap: 4px; margin-right: 16px; font-weight: 600; }
  .method input { width: auto; }
  h2.provider { font-size: 1rem; }
  .progress { background: #eef3fc; border: 1px solid #9fb7e8; padding: 12px; border-radius: 8px; margin-bottom: 12px; }
  .spinner { display: inline-block; width: 12px; height: 12px; border: 2px solid #1456c7; border-right-color: transparent; border-radius: 50%; animation: spin 1s linear infinite; }
  @keyframes spin { to { transform: rotate(360deg); } }
  .secondary { background: #fff; color: #1456c7; border: 1px solid #1456c7; }
  .actions { display: flex; gap: 8px; flex-wrap: wrap; }
  .done { background: #eaf6ee; border: 1px solid #9ad1ad; padding: 16px; border-radius: 8px; }
</style>
</head>
<body>
<button id="close" type="button" aria-label="닫기">닫기 ✕</button>
<h1>기관 계정 연결</h1>
<p id="requester" class="provider" hidden></p>
<p class="lead">입력한 아이디·비밀번호와 인증서 파일은 이 화면에서 암호화되어 데이터 수집 서비스에만 전달됩니다.</p>
<p id="loading" role="status">불러오는 중…</p>
<p id="fatal" class="error" role="alert" hidden></p>
<form id="form" hidden novalidate>
  <p id="optionName" class="provider" hidden></p>
  <div class="field" id="optionRow"><label for="option">기관과 로그인 방식</label><select id="option"></select></div>
  <fieldset id="methods" class="methods" hidden></fieldset>
  <h2 id="methodHeader" class="provider" hidden></h2>
  <section id="consentText" aria-label="동의 내용"><p id="consent" class="provider"></p></section>
  <div id="fields"></div>
  <div id="progress" class="progress" role="status" aria-live="polite" hidden><span class="spinner" aria-hidden="true"></span> <span id="progressText"></span> <strong id="countdown"></strong></div>
  <div id="consentWait" class="progress" role="status" aria-live="polite" hidden><p><span class="spinner" aria-hidden="true"></span> 금융결제원 오픈뱅킹 창에서 동의를 기다리고 있습니다. 그 창에서 계좌를 고르고 동의해 주세요.</p><div class="actions"><button id="reopenConsent" type="button" class="secondary">창 다시 열기</button> <button id="cancelConsent" type="button" class="secondary">취소</button></div></div>
  <p id="formError" class="error" role="alert" aria-live="assertive"></p>
  <button id="submit" type="submit">연결하기</button>
</form>
<div id="done" class="done" role="status" hidden><strong>연결되었습니다.</strong> 이 창을 닫아도 됩니다.</div>
<script>${UI_SCRIPT}</script>
</body>
</html>`;
