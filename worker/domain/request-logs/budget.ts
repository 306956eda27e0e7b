import { type Plan, PLAN_REQUEST_LOG } from "../workspaces/plans";
import { kstDate } from "../../../contracts/korean-time";
import { byteLength, isRefusalFold } from "./entry";
import type { RequestLogEntry } from "./messages";

/** What a workspace's log already took on a day (tables.ts requestLogDays), as the consumer read it. */
export interface DayUse {
  workspaceId: string;
  day: string;
  bytes: number;
}

/** What one batch adds to a workspace's day. */
export interface DayDelta extends DayUse {
  rows: number;
  omitted: number;
}

export const dayKey = (workspaceId: string, day: string) => `${workspaceId}|${day}`;

/**
 * Which of a batch's entries fit their workspace's daily budget (PLAN_REQUEST_LOG, by the workspace's plan; FREE's
 * for a workspace gone meanwhile), in the order they came, and what each day gains. Past the budget a request is
 * counted as omitted, not stored: the log must not let one tenant fill the database every tenant writes to
 * (docs/capacity.md). A rate limit's refusals (`collapseKey`) are always kept and not charged: they fold into a row
 * per key and minute, bounded by the plan's live keys, and a hammered limit is what an owner most needs to see. A
 * job's folded polls are charged as any request, once a message that carries them: a fold's row may be charged more
 * than once when its polls came in several messages, so the budget errs toward storing less, never more.
 * Two consumers running at once may each see the same remaining budget, so a day can overshoot by one batch.
 */
export function withinBudget(entries: RequestLogEntry[], used: DayUse[], plans: Map<string, Plan>): { kept: RequestLogEntry[]; days: DayDelta[] } {
  const days = new Map<string, DayDelta & { start: number }>(used.map((u) => [dayKey(u.workspaceId, u.day), { ...u, start: u.bytes, rows: 0, omitted: 0 }]));
  const kept: RequestLogEntry[] = [];
  for (const entry of entries) {
    if (isRefusalFold(entry)) {
      kept.push(entry);
      continue;
    }
    const day = kstDate(entry.createdAt);
    const key = dayKey(entry.workspaceId, day);
    let use = days.get(key);
    if (!use) days.set(key, (use = { workspaceId: entry.workspaceId, day, bytes: 0, start: 0, rows: 0, omitted: 0 }));
    const size = byteLength(JSON.stringify(entry));
    if (use.bytes + size > PLAN_REQUEST_LOG[plans.get(entry.workspaceId) ?? "FREE"].bytesPerDay) {
      use.omitted++;
      continue;
    }
    use.bytes += size;
    use.rows++;
    kept.push(entry);
  }
  return {
    kept,
    days: [...days.values()].filter((d) => d.rows + d.omitted > 0).map(({ start, bytes, ...d }) => ({ ...d, bytes: bytes - start })),
  };
}
