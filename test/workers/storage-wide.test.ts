// start-order: 6 (why: vitest.config.ts)
/**
 * The tests whose code under test acts on every row in storage, each named `*.storage-wide.test.ts` beside the code
 * it tests: the sweep, the webhook dispatcher, the retention cron (rows, and expired results), the vault rotation, the
 * provider status (which counts every file's sandbox jobs in one pulse) and the holders' consent (its expiry warnings
 * mark every credential due). They run here, one file after another in one runtime of their own (the
 * `workers-own-storage` project), away from the rows the other files make side by side; each copes with the rows
 * the others leave. One file, not one a member: every runtime costs about ten seconds to start. A member that must
 * come after the others says `// start-order: last` in its first lines (test/support/start-order.ts).
 */
/// <reference types="vite/types/importMeta.d.ts" />
import { startRank } from "../support/start-order";

const sources = import.meta.glob<string>("./**/*.storage-wide.test.ts", { query: "?raw", import: "default", eager: true });
const members = import.meta.glob("./**/*.storage-wide.test.ts");
const inOrder = Object.keys(members).sort((a, b) => startRank(sources[a]!) - startRank(sources[b]!) || a.localeCompare(b));
for (const member of inOrder) await members[member]!();
