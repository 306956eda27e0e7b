import scalarBundle from "./vendor/scalar-api-reference.standalone.js";

/** Where the page loads Scalar and its start-up from: the worker serves both, so the page needs no CDN and works offline. */
export const REFERENCE_ASSETS_PATH = "/api/v1/docs/assets";

/**
 * The reference page's scripts: Scalar's standalone bundle (@scalar/api-reference 1.72.1, a maintained OpenAPI
 * viewer with a request client, vendored: worker/web/api-reference/vendor/README.md) and the few lines that start it on the
 * served document. Fonts come from the system (Scalar's own are on its CDN), the request client sends from the browser
 * to this origin (the document's server), never through Scalar's proxy, and Scalar's hosted extras (its AI chat, MCP
 * generator, developer toolbar) are off: they would reach Scalar's servers.
 */
export const REFERENCE_SCRIPTS: Record<string, string> = {
  [`${REFERENCE_ASSETS_PATH}/scalar.js`]: scalarBundle,
  [`${REFERENCE_ASSETS_PATH}/start.js`]: `Scalar.createApiReference("#reference", { url: "/api/v1/openapi.json", withDefaultFonts: false, documentDownloadType: "json", showDeveloperTools: "never", agent: { disabled: true }, mcp: { disabled: true } });`,
};

/**
 * The API reference: Scalar renders the generated OpenAPI document with every `$ref` resolved into its schema, in
 * Korean where the document is, and each operation's "Test Request" sends it to this deployment (the local stack when
 * run locally) with the key typed into its Authentication field. Scalar styles itself inline, so the policy allows
 * inline styles; scripts, requests, fonts and images only from here.
 */
export const REFERENCE_PAGE = `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>데이터 수집 API 레퍼런스</title>
</head>
<body>
<div id="reference"></div>
<script src="${REFERENCE_ASSETS_PATH}/scalar.js"></script>
<script src="${REFERENCE_ASSETS_PATH}/start.js"></script>
</body>
</html>`;

export const REFERENCE_PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
