import redocBundle from "redoc/bundles/redoc.standalone.js";

/** Where the page loads Redoc from: the worker serves the bundle itself, so the page needs no CDN and works offline. */
export const REDOC_SCRIPT_PATH = "/api/v1/docs/redoc.standalone.js";

/** Redoc's standalone bundle (redoc@2.5.4, Redocly's maintained OpenAPI viewer), served as it ships. */
export const REDOC_SCRIPT = redocBundle;

/**
 * The API reference: Redoc renders the generated OpenAPI document with every `$ref` resolved into its schema, in
 * Korean where the document is. Redoc styles itself inline and parses the document in a worker of its own (a blob),
 * so the page's policy allows exactly that and nothing from elsewhere.
 */
export const REFERENCE_PAGE = `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>데이터 수집 API 레퍼런스</title>
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="/api/v1/openapi.json" path-in-middle-panel="true"></redoc>
<script src="${REDOC_SCRIPT_PATH}"></script>
</body>
</html>`;

export const REFERENCE_PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
