import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { verifyWebhook } from "../../../contracts/webhooks";

const root = path.resolve(import.meta.dirname, "../../..");
const vectorsPath = path.join(root, "test/support/webhook-vectors.json");
const vectors = JSON.parse(readFileSync(vectorsPath, "utf8")) as {
  standardWebhooks: { name: string; secret: string; body: string; headers: Record<string, string>; now: number; valid: boolean }[];
  svcSignature: { name: string; secret: string; body: string; header: string; now: number; valid: boolean }[];
};
// Debian's mypy is installed for the system Python (scripts/ensure-client-toolchains.sh); the client runs under any 3.10+.
const SYSTEM_PYTHON = "/usr/bin/python3";

afterEach(() => void vi.useRealTimers());

describe("the webhook vectors both clients check", () => {
  it("are the Standard Webhooks reference library's verdicts (the npm standardwebhooks package)", () => {
    for (const v of vectors.standardWebhooks) {
      vi.useFakeTimers({ now: v.now * 1000 });
      const verify = () => new Webhook(v.secret).verify(v.body, v.headers);
      if (v.valid) expect(verify, v.name).not.toThrow();
      else expect(verify, v.name).toThrow(WebhookVerificationError);
    }
  });

  it("are the service's own verdicts for X-SVC-Signature (contracts/webhooks.ts)", async () => {
    for (const v of vectors.svcSignature) {
      const verdict = await verifyWebhook(v.body, v.header, v.secret, { now: v.now * 1000 }).then(() => true, () => false);
      expect(verdict, v.name).toBe(v.valid);
    }
  });
});

describe("the partner clients' own tests", () => {
  it("Java: compiles with javac and Debian's Jackson, and ClientTests passes against its stand-in service", () => {
    const out = mkdtempSync(path.join(tmpdir(), "client-java-"));
    execFileSync("bash", [path.join(root, "client-java/build.sh"), out], { stdio: "pipe" });
    const classpath = `${out}:${execFileSync("bash", [path.join(root, "client-java/build.sh"), "--classpath"], { encoding: "utf8" }).trim()}`;
    const run = spawnSync("java", ["-cp", classpath, "kr.co.collectedge.client.ClientTests", vectorsPath], { encoding: "utf8" });
    expect(run.stdout.trim().split("\n").at(-1), run.stdout + run.stderr).toMatch(/^[1-9]\d* passed, 0 failed$/);
    expect(run.status).toBe(0);
  }, 120_000);

  it("Python: unittest passes against its stand-in service", () => {
    const run = spawnSync("python3", ["-m", "unittest", "discover", "-s", "tests"], { cwd: path.join(root, "client-python"), encoding: "utf8", env: { ...process.env, WEBHOOK_VECTORS: vectorsPath } });
    expect(run.stderr, run.stdout + run.stderr).toMatch(/\nOK\n?$/);
    expect(run.status).toBe(0);
  }, 120_000);

  it("Python: the client, its tests and the example type-check under mypy --strict", () => {
    const run = spawnSync(SYSTEM_PYTHON, ["-m", "mypy", "--config-file", "pyproject.toml"], { cwd: path.join(root, "client-python"), encoding: "utf8" });
    expect(run.stdout + run.stderr).toContain("Success: no issues found");
    expect(run.status).toBe(0);
  }, 120_000);
});
