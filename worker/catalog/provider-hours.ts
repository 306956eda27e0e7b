import { type MaintenanceWindow, nextWindows, windowMet } from "./maintenance";
import type { ProviderDefinition } from "./providers";

/** The one setting the calendar reads (worker/env.ts SANDBOX_CLOCK_OFFSET_MS), not the bindings: the node tests hold the calendar against the sandbox outside the Workers runtime. */
type HoursEnv = { SANDBOX_CLOCK_OFFSET_MS?: string };

/**
 * How far the provider's clock runs from ours: a real institution keeps our time; the sandbox keeps the local
 * stack's shared clock, and without one it keeps no hours at all (null), as its sites do.
 */
function offsetOf(env: HoursEnv, provider: ProviderDefinition): number | null {
  if (!provider.sandbox) return 0;
  const offset = Number(env.SANDBOX_CLOCK_OFFSET_MS);
  return env.SANDBOX_CLOCK_OFFSET_MS && Number.isFinite(offset) ? offset : null;
}

const shifted = (w: MaintenanceWindow, offset: number): MaintenanceWindow => ({ ...w, startsAt: w.startsAt - offset, endsAt: w.endsAt - offset });

/** The provider's next maintenance windows, in our time. */
export function upcomingMaintenance(env: HoursEnv, provider: ProviderDefinition, now: number, count: number): MaintenanceWindow[] {
  const offset = offsetOf(env, provider);
  return offset === null ? [] : nextWindows(provider.maintenance, now + offset, count).map((w) => shifted(w, offset));
}

/** The maintenance a run from `now` lasting `runMs` would meet at the provider, in our time; null when none. */
export function maintenanceMet(env: HoursEnv, provider: ProviderDefinition, now: number, runMs: number): MaintenanceWindow | null {
  const offset = offsetOf(env, provider);
  const met = offset === null ? null : windowMet(provider.maintenance, now + offset, runMs);
  return met && shifted(met, offset!);
}
