import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, folderGraph, type Import, importsOf, sourceFiles } from "../../support/import-graph";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/**
 * The worker's layers (docs/architecture.md), each importing only what is listed for it. `import type` counts as a
 * value import does: a type ties its user to its owner all the same. The one exception is the generated bindings
 * (worker-configuration.d.ts, from wrangler.toml), which name the Durable Object classes through worker/index.ts: it
 * is global, outside worker/, and no file imports it.
 */
const MAY_IMPORT: Record<string, string[]> = {
  platform: ["platform"],
  domain: ["platform", "domain"],
  web: ["platform", "domain", "web"],
  api: ["platform", "domain", "web", "api"],
  console: ["platform", "domain", "web", "console"],
  admin: ["platform", "domain", "web", "admin"],
};
/** The files at the top, which wire the layers together: the handlers and the app that mounts the surfaces. */
const ROOT_FILES = ["worker/index.ts", "worker/app.ts"];

/**
 * Domain folders from the bottom up: each imports only folders before it, so no two import each other in a circle. A
 * new folder takes its place here, which is where a reader finds what it may use.
 */
const DOMAIN_ORDER = [
  "mail",
  "vault",
  "workspaces",
  "webhooks",
  "alerts",
  "request-logs",
  "catalog",
  "certificates",
  "reports",
  "scraper",
  "business-status",
  "results",
  "partners",
  "credentials",
  "registration",
  "partner-revocation",
  "deliveries",
  "schedules",
  "jobs",
  "billing",
  "pipeline",
  "schedule-runs",
  "api-keys",
  "console-sessions",
  "download-links",
  "consent-withdrawal",
  "deployment",
  "device-codes",
  "users",
  "operators",
  "key-rotation",
  "retention",
];

const layerOf = (file: string): string | undefined => (ROOT_FILES.includes(file) ? undefined : file.split("/")[1]);
const domainFolderOf = (file: string): string | undefined => (file.startsWith("worker/domain/") ? file.split("/")[2] : undefined);

const workerImports: Import[] = sourceFiles(ROOT, "worker").flatMap((file) => importsOf(ROOT, file));

describe("the worker's layers", () => {
  it("reads the worker's imports", () => {
    expect(workerImports.length).toBeGreaterThan(500);
    expect(Object.keys(MAY_IMPORT).sort()).toEqual([...new Set(sourceFiles(ROOT, "worker").map(layerOf).filter((l) => l !== undefined && !ROOT_FILES.includes(`worker/${l}`)))].sort());
  });

  it("lets each layer import only the layers below it, and no surface another", () => {
    const crossings = workerImports.flatMap(({ from, to }) => {
      const [a, b] = [layerOf(from), layerOf(to)];
      if (a === undefined || !to.startsWith("worker/")) return [];
      return b !== undefined && MAY_IMPORT[a]!.includes(b) ? [] : [`${from} -> ${to}`];
    });
    expect(crossings).toEqual([]);
  });

  it("has no import circle between the worker's top-level folders", () => {
    const graph = folderGraph(workerImports, (file) => (file.startsWith("worker/") ? (layerOf(file) ?? file) : undefined));
    expect(cycles(graph)).toEqual([]);
  });

  it("orders the domain folders, each importing only those below it", () => {
    const folders = [...new Set(sourceFiles(ROOT, "worker/domain").map((f) => domainFolderOf(f)!))].sort();
    expect([...DOMAIN_ORDER].sort()).toEqual(folders);
    const upward = new Set<string>();
    for (const { from, to } of workerImports) {
      const [a, b] = [domainFolderOf(from), domainFolderOf(to)];
      if (a && b && a !== b && DOMAIN_ORDER.indexOf(a) < DOMAIN_ORDER.indexOf(b)) upward.add(`${from} -> ${to}`);
    }
    expect([...upward].sort()).toEqual([]);
  });

  // A guard against monsters, not a reason to split: a file holds one concept whole, and one past 600 lines holds more.
  it("keeps source files from growing into several concepts: none over 600 lines, app.ts under 150", () => {
    const files = ["worker", "contracts", "collectors", "scraper-container", "sandbox"].flatMap((dir) => sourceFiles(ROOT, dir));
    const long = files.filter((file) => readFileSync(path.join(ROOT, file), "utf8").split("\n").length > 600);
    expect(long).toEqual([]);
    expect(readFileSync(path.join(ROOT, "worker/app.ts"), "utf8").split("\n").length).toBeLessThan(150);
  });

  it("sees what breaks the rules: an import upward, of a value or of a type", () => {
    // The check must not be blind: a platform file importing the domain is found, whether it takes a value or a type.
    const root = mkdtempSync(path.join(tmpdir(), "layers-"));
    for (const dir of ["worker/platform", "worker/domain/jobs"]) mkdirSync(path.join(root, dir), { recursive: true });
    writeFileSync(path.join(root, "worker/domain/jobs/store.ts"), "export const findJob = () => null;\nexport type JobRow = { id: string };\n");
    writeFileSync(
      path.join(root, "worker/platform/typed.ts"),
      'import type { JobRow } from "../domain/jobs/store";\nimport { type JobRow as Row } from "../domain/jobs/store";\nexport type A = JobRow | Row | import("../domain/jobs/store").JobRow;\n',
    );
    writeFileSync(path.join(root, "worker/platform/wrong.ts"), 'import { findJob } from "../domain/jobs/store";\nexport const lazy = () => import("../domain/jobs/store");\nexport { findJob };\n');
    const found = sourceFiles(root, "worker").flatMap((file) => importsOf(root, file));
    const typed = { from: "worker/platform/typed.ts", to: "worker/domain/jobs/store.ts" };
    const wrong = { from: "worker/platform/wrong.ts", to: "worker/domain/jobs/store.ts" };
    expect(found.filter((i) => i.from === typed.from)).toEqual([typed, typed, typed]);
    expect(found.filter((i) => i.from === wrong.from)).toEqual([wrong, wrong]);
    expect(found).toHaveLength(5);
    expect(cycles(folderGraph([...found, { from: "worker/domain/jobs/store.ts", to: "worker/platform/wrong.ts" }], layerOf))).toEqual([["domain", "platform"]]);
  });
});

/** A file's top-level folder, or for collectors/ the folder below it (its kit, or one institution) or the root file itself. */
const packagePartOf = (file: string): string => {
  const parts = file.split("/");
  return parts[0] === "collectors" && parts.length > 2 ? parts.slice(0, 2).join("/") : parts[0] === "collectors" ? file : parts[0]!;
};
/** What runs: the tests beside the adapters check against the sandbox and the worker, and the image leaves them out. */
const runtimeImports = (dir: string): Import[] => sourceFiles(ROOT, dir).filter((file) => !file.endsWith(".test.ts")).flatMap((file) => importsOf(ROOT, file));

// The scraper's image holds contracts/ and collectors/ and nothing else of the repository: what they import at run
// time must be there too. Type imports leave nothing behind (contracts/scraper-protocol.ts types the wire with the adapter's types).
describe("contracts and the collectors", () => {
  const contracts = runtimeImports("contracts");
  const collectors = runtimeImports("collectors");

  it("lets contracts import only contracts", () => {
    expect(contracts.length).toBeGreaterThan(5);
    expect(contracts.filter(({ to }) => !to.startsWith("contracts/")).map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it("lets the collectors import only the collectors and contracts", () => {
    expect(collectors.length).toBeGreaterThan(100);
    expect(collectors.filter(({ to }) => !to.startsWith("collectors/") && !to.startsWith("contracts/")).map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it("keeps each institution's adapter to itself: it and the kit use the adapter contract, the kit and contracts; only the registry imports an institution", () => {
    const shared = new Set(["collectors/adapter.ts", "collectors/kit", "contracts"]);
    const crossings = collectors.filter(({ from, to }) => {
      const [a, b] = [packagePartOf(from), packagePartOf(to)];
      return a !== b && a !== "collectors/registry.ts" && !shared.has(b);
    });
    expect(crossings.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });
});
