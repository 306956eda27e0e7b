import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const DOCKERFILE = readFileSync(path.join(ROOT, "scraper-container/Dockerfile"), "utf8");

/** What the image holds of the repository: the sources of its COPY lines (the lock files aside). */
const copied = [...DOCKERFILE.matchAll(/^COPY\s+(.+)\s+\S+$/gm)].flatMap((m) => m[1]!.split(/\s+/)).filter((source) => !source.startsWith("package"));
/** The programs the image runs: its CMD's, and the runner a host in Korea starts from it (docs/deploying.md). */
const entries = [JSON.parse(/^CMD\s+(\[.*\])$/m.exec(DOCKERFILE)![1]!).at(-1) as string, "scraper-container/runner.ts"];
const { dependencies } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };

/** The programs' module graph as Node would load it: the repository's files, and the packages they import. */
async function readModuleGraph(): Promise<{ files: string[]; packages: string[] }> {
  const { metafile } = await build({ entryPoints: entries.map((entry) => path.join(ROOT, entry)), outdir: "out", bundle: true, platform: "node", format: "esm", packages: "external", write: false, metafile: true, logLevel: "silent" });
  const imports = Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path));
  const packageName = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
  const builtin = (specifier: string) => specifier.startsWith("node:") || builtinModules.includes(specifier);
  return { files: Object.keys(metafile.inputs), packages: [...new Set(imports.filter((i) => !builtin(i)).map(packageName))] };
}

let graph: ReturnType<typeof readModuleGraph> | undefined;
const moduleGraph = () => (graph ??= readModuleGraph());

// No Docker daemon runs where the tests do, so the image is never built here: these keep what it copies and installs
// in step with what the scraper imports (the contract's move to contracts/ left the image without it once).
describe("the scraper's container image", () => {
  it("copies every file of the repository the scraper loads", async () => {
    const { files } = await moduleGraph();
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((file) => !copied.some((source) => file === source || file.startsWith(`${source}/`)))).toEqual([]);
  });

  it("installs every package the scraper imports as a production dependency (the image omits the others)", async () => {
    const { packages } = await moduleGraph();
    expect(packages).toContain("puppeteer-core");
    expect(packages.filter((name) => !(name in dependencies))).toEqual([]);
  });
});
