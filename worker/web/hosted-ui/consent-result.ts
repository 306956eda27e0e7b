/** The consent window's page: no third-party resources, no framing, its one script only tells the hosted page to look. */
export const CONSENT_RESULT_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * What the person sees when KFTC's page sends them back (api/connect/open-banking.ts callback): connected, or why
 * not in Korean with the catalog code. The registration page that opened this window learns the same by asking the
 * service (GET /connect/api/open-banking/consent); the message below only makes it ask at once, and carries nothing.
 */
export function consentResultPage(outcome: { state: "CONNECTED" } | { state: "FAILED"; code: string; message: string } | { state: "WAITING" }): string {
  const ok = outcome.state === "CONNECTED";
  const body = ok
    ? `<div class="done" role="status"><strong>오픈뱅킹 동의가 끝났습니다.</strong> 계좌가 연결되었습니다. 이 창을 닫고 등록 화면으로 돌아가 주세요.</div>`
    : `<p class="error" role="alert" data-code="${escapeHtml(outcome.state === "FAILED" ? outcome.code : "")}">${escapeHtml(outcome.state === "FAILED" ? outcome.message : "")}</p><p>코드: <code>${escapeHtml(outcome.state === "FAILED" ? outcome.code : "")}</code></p>`;
  return `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>오픈뱅킹 동의 결과</title>
<style>body{font-family:system-ui,"Nanum Gothic",sans-serif;margin:0;padding:24px;color:#1d2433}.error{color:#b3261e;font-weight:600}.done{background:#eaf6ee;border:1px solid #9ad1ad;padding:16px;border-radius:8px}</style>
</head><body><h1>오픈뱅킹 동의</h1>${body}
<script>try { if (window.opener) window.opener.postMessage({ type: "collect:open-banking-returned" }, location.origin); } catch (e) {}${ok ? " setTimeout(() => window.close(), 1500);" : ""}</script>
</body></html>`;
}
