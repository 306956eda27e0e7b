import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("the README's links", () => {
  it("each lead to a file of the repository, so a fresh clone has what they name", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
    expect(targets.length).toBeGreaterThan(0);
    const outside = targets.filter((target) => {
      const resolved = path.resolve(ROOT, target);
      return !resolved.startsWith(ROOT + path.sep) || !existsSync(resolved);
    });
    expect(outside).toEqual([]);
  });
});
