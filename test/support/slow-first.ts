import { readFileSync } from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { startRank } from "./start-order";

/**
 * Vitest starts the files that took longest in earlier runs first, from its cache, which a fresh clone (CI) does not
 * have: it then starts large files first, and the slowest files, small ones among them, start last and make the
 * lane's tail (fresh-clone run c8: faults.test.ts began at 473 s of 677). This starts the files that say
 * `// start-order: N` in their first lines (test/support/start-order.ts), slowest first as the last full runs measured
 * them (docs/testing.md), before the rest, in whichever project they are; vitest's own order stays among the rest.
 */
export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ranks = new Map(files.map((file) => [file, startRank(readFileSync(file.moduleId, "utf8"))]));
    return (await super.sort(files)).sort((a, b) => ranks.get(a)! - ranks.get(b)!);
  }
}
