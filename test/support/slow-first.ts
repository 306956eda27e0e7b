import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Vitest starts the files that took longest in earlier runs first, from its cache, which a fresh clone (CI) does not
 * have: it then starts large files first, and the slowest files, small ones among them, start last and make the
 * lane's tail (fresh-clone run c8: faults.test.ts began at 473 s of 677). This starts the files named, slowest
 * first as the last full runs measured them (docs/testing.md), before the rest, in whichever project they are.
 */
export function slowFirst(names: readonly string[]) {
  const rank = (file: TestSpecification) => {
    const at = names.findIndex((name) => file.moduleId.endsWith(`/${name}`));
    return at === -1 ? names.length : at;
  };
  return class SlowFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
    }
  };
}
