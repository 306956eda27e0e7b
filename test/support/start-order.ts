/**
 * Where a test file starts among its lane's files, as the file itself says in its first lines:
 * `// start-order: N` (N = 1 first, then 2, …) or `// start-order: last`; a file that says nothing starts after the
 * numbered ones and before the last. Runs in Node and in the Workers runtime (the storage-wide runner reads its
 * members' text through `import.meta.glob`), so it only reads text.
 */
const MARKER = /^\/\/ start-order: (\d+|last)\b/m;
const HEAD_LINES = 10;

export function startRank(source: string): number {
  const found = MARKER.exec(source.split("\n", HEAD_LINES).join("\n"));
  if (!found) return Number.MAX_SAFE_INTEGER - 1;
  return found[1] === "last" ? Number.MAX_SAFE_INTEGER : Number(found[1]);
}
