import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/free-port";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** This checkout's files as a clone has them, nothing built or ignored (no sdk/dist/), beside the installed node_modules. */
function freshClone(): string {
  const clone = mkdtempSync(path.join(tmpdir(), "collect-fresh-clone-"));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of files) if (existsSync(path.join(ROOT, file))) cpSync(path.join(ROOT, file), path.join(clone, file));
  symlinkSync(path.join(ROOT, "node_modules"), path.join(clone, "node_modules"));
  return clone;
}

const clones: string[] = [];
afterAll(() => {
  for (const clone of clones) rmSync(clone, { recursive: true, force: true });
});

describe("the README's partner example command", () => {
  // It read sdk/dist/collect-sdk.js, which only `npm run build:sdk` (run by `npm test`) makes: ENOENT on a fresh clone.
  it("serves the partner page and the SDK's script on a fresh clone, run exactly as the README writes it", async () => {
    const command = /`(SERVICE_URL=\S+ API_KEY=<demo key> [^`]*examples\/partner\/server\.ts)`/.exec(readFileSync(path.join(ROOT, "README.md"), "utf8"))?.[1];
    expect(command).toBeDefined();
    const clone = freshClone();
    clones.push(clone);
    expect(existsSync(path.join(clone, "sdk", "dist"))).toBe(false);
    const port = await freePort();
    const child = spawn("sh", ["-c", command!.replace("<demo key>", "demo-key")], { cwd: clone, env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    try {
      for (const since = Date.now(); !output.includes("example partner on"); await new Promise((r) => setTimeout(r, 100))) {
        if (child.exitCode !== null || Date.now() - since > 60_000) throw new Error(`the example did not start: ${output}`);
      }
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script src="/collect-sdk.js"></script>');
      const sdk = await fetch(`http://127.0.0.1:${port}/collect-sdk.js`);
      expect(sdk.status).toBe(200);
      expect(await sdk.text()).toMatch(/var CollectSDK=.*openRegistration/s);
    } finally {
      process.kill(-child.pid!, "SIGKILL");
    }
  });
});
