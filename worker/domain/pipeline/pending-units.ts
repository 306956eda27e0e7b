import type { CollectedUnit } from "../results/unit-results";

/**
 * Past this many records, units waiting in memory are committed whatever their age: about 10 MB of JSON lines and
 * CSV rows for bank transactions, well inside an isolate's 128 MB.
 */
const MAX_PENDING_RECORDS = 20_000;
/**
 * Units of one object: keeps a retried commit's re-collection small, and the commit's one update of the plan inside
 * D1's 100 bound parameters a statement (5 a unit and 6 more: 86 at 16; jobs/lifecycle.ts `unitsCommitted`).
 */
const MAX_PENDING_UNITS = 16;

/**
 * A delivery's collected units not yet committed. They are stored as one R2 object and committed in one D1
 * transaction when they are due (by count, records or age) and whenever the delivery stops, so a job of many units
 * writes a few objects rather than one per unit, and a crash loses at most the units collected since the last commit.
 */
export class PendingUnits {
  private units: CollectedUnit[] = [];
  private records = 0;
  private since = 0;
  /** The first unit of the commit under way, until it succeeded. */
  private committing: number | null = null;

  constructor(private readonly commitEveryMs: number) {}

  /** The first unit collected and not committed, waiting here or in a commit that has not succeeded: where the chain resumes. */
  get uncommittedFrom(): number | null {
    return this.committing ?? this.units[0]?.unitIndex ?? null;
  }

  get size(): number {
    return this.units.length;
  }

  add(unit: CollectedUnit, now: number): void {
    if (this.units.length === 0) this.since = now;
    this.units.push(unit);
    this.records += unit.records.length;
  }

  due(now: number): boolean {
    return this.units.length >= MAX_PENDING_UNITS || this.records >= MAX_PENDING_RECORDS || now - this.since >= this.commitEveryMs;
  }

  /** Hands over every unit to commit, leaving none here, so a commit that fails is not tried twice. */
  take(): CollectedUnit[] {
    const units = this.units;
    this.committing = units[0]?.unitIndex ?? null;
    this.units = [];
    this.records = 0;
    return units;
  }

  committed(): void {
    this.committing = null;
  }
}
