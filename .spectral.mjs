// Spectral's `oas` ruleset and the OWASP API Security ruleset over the document the worker serves, run by
// test/node/worker/openapi-lint.test.ts (Spectral's CLI reads it too: `spectral lint -r .spectral.mjs openapi.json`). What the rules find is fixed in the
// route definitions (worker/api/, worker/platform/http/bounds.ts, worker/platform/http/rate-headers.ts); a rule is changed here only where
// it is wrong for this API by design, for one operation or schema where it can be, and each exception is a row of
// docs/security.md, "The contract says its limits".
import { oas } from "@stoplight/spectral-rulesets";
import owasp from "@stoplight/spectral-owasp-ruleset";
import { schema } from "@stoplight/spectral-functions";

/** JSON pointers into the document, as overrides take them (escaped as Spectral writes the paths it reports). */
const operation = (path, method) =>
  `#/paths/${path.replaceAll("~", "~0").replaceAll("/", "~1").replaceAll("{", "%7B").replaceAll("}", "%7D")}/${method}`;
const DEVICE_AUTHORIZATION = operation("/oauth/device_authorization", "post");
const DEVICE_TOKEN = operation("/oauth/device/token", "post");
const DOWNLOAD_LINK = operation("/api/v1/download-links/{token}", "get");
const RESULTS_CSV = operation("/api/v1/data-jobs/{id}/results.csv", "get");
const RESULTS_XLSX = operation("/api/v1/data-jobs/{id}/results.xlsx", "get");
const ENCRYPTION_KEYS = operation("/connect/api/keys", "get");
const GATEWAY_WEBHOOK = operation("/webhooks/portone", "post");
const RESULTS_DATA = "#/components/schemas/DataJobResults/properties/data";

/** Overrides match the document by file name: the test lints `openapi.json`, and so does anyone linting a saved copy. */
const at = (...pointers) => pointers.map((pointer) => `openapi.json${pointer}`);

export default {
  extends: [oas, owasp],
  rules: {
    // The spec names the rate headers: X-RateLimit-Limit-Minute, X-RateLimit-Limit-Hour and X-RateLimit-Remaining on
    // every response. OWASP's rule knows other names (RateLimit, X-RateLimit-Limit), so this rule asks for ours instead.
    "owasp:api4:2023-rate-limit": "off",
    "collect:rate-limit-headers": {
      description: "Every response declares the rate headers the API sends (worker/api/rate-limit.ts).",
      message: "{{error}}",
      severity: "error",
      given: "$.paths[*][*].responses[*]",
      then: {
        field: "headers",
        function: schema,
        functionOptions: {
          schema: { type: "object", required: ["X-RateLimit-Limit-Minute", "X-RateLimit-Limit-Hour", "X-RateLimit-Remaining"] },
        },
      },
    },
    // No CORS by design: the API is called by servers with an API key, and the hosted UI calls its own origin. Without
    // Access-Control-Allow-Origin a browser on another origin cannot read a response, which is what is wanted.
    "owasp:api8:2023-define-cors-origin": "off",
  },
  overrides: [
    {
      // The operators' API (its own document, linted as admin-openapi.json): signing in is what makes a session, so
      // it takes none; it answers only with the password and the authenticator's code, limited per address and account.
      files: ["admin-openapi.json#/paths/~1sessions/post"],
      rules: { "owasp:api2:2023-write-restricted": "off" },
    },
    {
      // RFC 8628: the device grant is how a command-line client without an API key gets one, so both endpoints are
      // public; a device code is the secret of the second and is rate-limited per code (slow_down) and per address.
      files: at(DEVICE_AUTHORIZATION, DEVICE_TOKEN),
      rules: { "owasp:api2:2023-write-restricted": "off" },
    },
    {
      // The payment gateway's deliveries carry no credential of ours: each is signed (Standard Webhooks) over its exact
      // body with the secret the gateway's console shows, checked before anything is read (docs/billing.md).
      files: at(GATEWAY_WEBHOOK),
      rules: { "owasp:api2:2023-write-restricted": "off" },
    },
    {
      // A download link carries its signed token in the path: the link is the credential (a short-lived, signed,
      // single-job grant), made so a browser or `curl` can fetch the CSV without the API key.
      files: at(DOWNLOAD_LINK),
      rules: { "owasp:api2:2023-no-credentials-in-url": "off", "owasp:api2:2023-read-restricted": "off" },
    },
    {
      // The hosted UI's public encryption key is public by design: the browser encrypts to it before it has anything else.
      files: at(ENCRYPTION_KEYS),
      rules: { "owasp:api2:2023-read-restricted": "off" },
    },
    {
      // A job's results are every record the institution holds for the job's period, streamed: the size is the data's,
      // not a request's (results are read in pieces through results.csv, results.xlsx or a download link of the same bytes).
      files: at(RESULTS_DATA, `${RESULTS_CSV}/responses/200/content`, `${RESULTS_XLSX}/responses/200/content`, `${DOWNLOAD_LINK}/responses/200/content`),
      rules: { "owasp:api4:2023-array-limit": "off", "owasp:api4:2023-string-limit": "off" },
    },
  ],
};
