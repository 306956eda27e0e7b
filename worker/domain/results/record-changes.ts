import type { RecordIdentity } from "../catalog/schemas";

export const CHANGES = ["added", "modified", "removed"] as const;
export type Change = (typeof CHANGES)[number];

interface Collected {
  range: { start: string; end: string };
  records: Record<string, unknown>[];
}

/** Records by key, in first-seen order; a key's records in collection order. */
function byKey(identity: RecordIdentity, records: Record<string, unknown>[]): Map<string, Record<string, unknown>[]> {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const record of records) {
    const key = identity.key(record);
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  return groups;
}

// Lines in any order: a portal may list a document's lines differently from one inquiry to the next.
const contents = (records: Record<string, unknown>[]) => records.map((r) => JSON.stringify(r)).sort().join("\n");

const within = (day: string, range: { start: string; end: string }) => day >= range.start && day <= range.end;

/**
 * What changed from the base collection to the current one, by record key: a key only now is `added`, a key whose
 * records differ comes back whole as `modified`, and a key the base had on a day the current range covers but the
 * institution no longer shows is `removed` (with its last contents). A base key on a day outside the current range
 * is not a change: the current job did not look there. Current order first, then removals in base order.
 */
export function changesBetween(identity: RecordIdentity, base: Collected, current: Collected): Record<string, unknown>[] {
  const before = byKey(identity, base.records);
  const now = byKey(identity, current.records);
  const changes: Record<string, unknown>[] = [];
  for (const [key, records] of now) {
    const old = before.get(key);
    if (old && contents(old) === contents(records)) continue;
    const change: Change = old ? "modified" : "added";
    for (const record of records) changes.push({ ...record, change });
  }
  for (const [key, records] of before) {
    if (now.has(key) || !within(identity.day(records[0]!), current.range)) continue;
    for (const record of records) changes.push({ ...record, change: "removed" satisfies Change });
  }
  return changes;
}
