import { execFile } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spectralFindings } from "../../support/spectral-lint";
import { unstable_startWorker } from "wrangler";
import { freshSecrets } from "../../../scripts/local-stack";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const REDOCLY = realpathSync(path.join(ROOT, "node_modules/.bin/redocly"));
/** Where a deployment is reached: the document names the origin it was served from as its server (worker/app.ts). */
const DEPLOYED = { hostname: "api.collect-edge.kr", secure: true };
const DEPLOYED_ORIGIN = `https://${DEPLOYED.hostname}`;

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

let dir: string;
let document: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "collect-openapi-lint-"));
  // The worker as `wrangler dev` runs it, asked for its document and stopped. Its secrets only have to exist: it is asked
  // nothing that uses them, nor the scraper, which the deployment check requires to be named, nor mail (its outbox will do).
  // The Open Banking Callback URL a deployment must name (docs/deploying.md) is the deployed origin's own.
  const secrets = { ...(await freshSecrets()), SCRAPER_URL: "http://127.0.0.1:9", MAIL_OUTBOX_ONLY: "1", OPENBANKING_CALLBACK_URL: `${DEPLOYED_ORIGIN}/connect/open-banking/callback` };
  const worker = await unstable_startWorker({
    config: path.join(ROOT, "wrangler.toml"),
    bindings: Object.fromEntries(Object.entries(secrets).map(([name, value]) => [name, { type: "plain_text" as const, value }])),
    // Requests reach it as they would reach a deployment (a local origin would be a placeholder server to a client).
    dev: { server: { port: 0 }, origin: DEPLOYED, inspector: false, watch: false, persist: path.join(dir, "state"), logLevel: "error" },
  });
  try {
    const response = await worker.fetch(`${DEPLOYED_ORIGIN}/api/v1/openapi.json`);
    document = await response.text();
    if (response.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${response.status}: ${document}`);
  } finally {
    await worker.dispose();
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the served OpenAPI document", () => {
  it("passes `redocly lint` with the recommended rules (redocly.yaml), without an error or a warning", async () => {
    const file = path.join(dir, "openapi.json");
    writeFileSync(file, document);
    expect(JSON.parse(document).servers).toEqual([expect.objectContaining({ url: DEPLOYED_ORIGIN })]);
    const run = promisify(execFile)(process.execPath, [REDOCLY, "lint", file, "--config", path.join(ROOT, "redocly.yaml"), "--format", "json"], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
      maxBuffer: 32 * 1024 * 1024,
    });
    // redocly exits non-zero on errors; the report on stdout is what is read either way.
    const { stdout } = await run.catch((failure: { stdout?: string; stderr?: string }) => {
      if (!failure.stdout) throw new Error(`redocly did not run: ${failure.stderr}`);
      return { stdout: failure.stdout };
    });
    const report = JSON.parse(stdout) as LintReport;
    const found = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(found).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("passes Spectral's `oas` and OWASP API Security rulesets (.spectral.mjs) without an error", async () => {
    // Named openapi.json, as the ruleset's per-operation overrides expect.
    const { errors, warnings } = await spectralFindings(document, path.join(dir, "openapi.json"));
    // Warnings stay (docs/security.md lists them); they are printed so a new kind shows up in the run's output.
    const counted = Object.entries(warnings).map(([rule, found]) => `${rule}: ${found.length}`);
    if (counted.length) console.info(`Spectral warnings by rule: ${counted.join(", ")}`);
    expect(errors).toEqual({});
  });
});
