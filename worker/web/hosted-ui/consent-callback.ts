/** The callback page: no third-party resources, no framing, no referrer; its one inline script hands KFTC's answer on. */
export const CONSENT_CALLBACK_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * What the consent window shows when KFTC's page sends it back (api/connect/open-banking.ts callback). It completes
 * nothing by itself: its script hands the query (code and state, or error) to the window that opened it, at this
 * service's origin only, and the hosted page there completes the consent (POST /connect/api/open-banking/completions)
 * and closes this window. A window with no such opener (the authorization URL opened in another browser) says so, and
 * the code dies unused at KFTC.
 */
export function consentCallbackPage(): string {
  return `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>오픈뱅킹 동의</title>
<style>body{font-family:system-ui,"Nanum Gothic",sans-serif;margin:0;padding:24px;color:#1d2433}.error{color:#b3261e;font-weight:600}</style>
</head><body><h1>오픈뱅킹 동의</h1>
<p id="handed" hidden role="status">등록 화면에서 동의를 마무리하고 있습니다. 이 창은 곧 닫힙니다.</p>
<p id="orphan" hidden class="error" role="alert">이 창은 등록 화면에서 열린 창이 아니어서 동의를 마칠 수 없습니다. 동의를 요청한 등록 화면으로 돌아가 다시 시작해 주세요.</p>
<script>
let handed = false;
try { if (window.opener) { window.opener.postMessage({ type: "collect:open-banking-callback", query: location.search }, location.origin); handed = true; } } catch (e) {}
document.getElementById(handed ? "handed" : "orphan").hidden = false;
</script>
</body></html>`;
}
