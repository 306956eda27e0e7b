import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

describe("the typed client's generated types", () => {
  // client/openapi.json itself is compared with what the app serves by test/workers/client/client-openapi-document.test.ts.
  it("are what openapi-typescript makes of the committed document (npm run client:generate rewrites them)", () => {
    const fresh = path.join(mkdtempSync(path.join(tmpdir(), "client-types-")), "api.d.ts");
    execFileSync(path.join(root, "node_modules/.bin/openapi-typescript"), [path.join(root, "client/openapi.json"), "-o", fresh], { stdio: "pipe" });
    expect(readFileSync(path.join(root, "client/src/api.d.ts"), "utf8")).toBe(readFileSync(fresh, "utf8"));
  });
});
