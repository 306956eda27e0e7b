import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("the CLI writing into a closed pipe", () => {
  // `collect … | head` closes the pipe while the CLI still writes: Node raises EPIPE where C tools get SIGPIPE.
  // The reader here is gone before the CLI writes a byte, so every write meets the closed pipe.
  it("exits 0 without a stack trace when the reader of its stdout has gone", async () => {
    const child = spawn(process.execPath, ["cli/bin.mjs", "--help"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
