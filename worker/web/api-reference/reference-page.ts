import scalarBundle from "./vendor/scalar-api-reference.standalone.js";

/** Where the page loads Scalar and its start-up from: the worker serves both, so the page needs no CDN and works offline. */
export const REFERENCE_ASSETS_PATH = "/api/v1/docs/assets";

/**
 * Scalar's colours where its own fail WCAG's 4.5:1 for text (axe counts each as serious: docs/api-design.md,
 * "Accessibility"), each at 4.5:1 or more on every background of its mode. Light: the greys and method colours darkened
 * (its #757575, #8e8e8e, #0082d0, #069061, #ff5800, #ef0006 and the rest, on #fff, #f6f6f6 and #e7e7e7); dark: the
 * faintest grey and the red lightened (#797979 and #dc1b19 on #0f0f0f to #272727). `!important` because Scalar sets
 * them again, as display-p3 colours, where the browser has them.
 */
const CONTRAST_THEME = {
  "light-mode": ["--scalar-color-2:#5c5c5c", "--scalar-color-3:#666", "--scalar-color-green:#00734c", "--scalar-color-red:#c70005", "--scalar-color-yellow:#7a5e00", "--scalar-color-blue:#0068a8", "--scalar-color-orange:#b83800", "--scalar-color-query:#00696d"],
  "dark-mode": ["--scalar-color-3:#949494", "--scalar-color-red:#ff6161"],
};
const CONTRAST_CSS = Object.entries(CONTRAST_THEME)
  .map(([mode, properties]) => `.${mode}{${properties.map((property) => `${property}!important`).join(";")}}`)
  .join("");

/**
 * The reference page's scripts: Scalar's standalone bundle (@scalar/api-reference 1.72.1, a maintained OpenAPI
 * viewer with a request client, vendored: worker/web/api-reference/vendor/README.md) and the few lines that start it on the
 * served document. Fonts come from the system (Scalar's own are on its CDN), the request client sends from the browser
 * to this origin (the document's server), never through Scalar's proxy, and Scalar's hosted extras (its AI chat, MCP
 * generator, developer toolbar) are off: they would reach Scalar's servers.
 */
export const REFERENCE_SCRIPTS: Record<string, string> = {
  [`${REFERENCE_ASSETS_PATH}/scalar.js`]: scalarBundle,
  [`${REFERENCE_ASSETS_PATH}/start.js`]: `Scalar.createApiReference("#reference", { url: "/api/v1/openapi.json", withDefaultFonts: false, documentDownloadType: "json", showDeveloperTools: "never", agent: { disabled: true }, mcp: { disabled: true }, customCss: ${JSON.stringify(CONTRAST_CSS)} });`,
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
