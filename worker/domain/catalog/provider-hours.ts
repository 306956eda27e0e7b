import { firstMet, type MaintenanceWindow, nextWindows } from "./maintenance";
import type { ProviderDefinition } from "./providers";

/** The one setting the calendar reads (worker/platform/settings.d.ts), not the bindings: the node tests run it outside the Workers runtime. */
type HoursEnv = { SANDBOX_BASE_URL: string };

// A sandbox slow to say its time must not hold a job's delivery: past this it is taken to keep no hours.
const CLOCK_WAIT_MS = 2_000;

/**
 * How far the sandbox's clock runs from ours, as the sandbox says (`GET /sandbox/clock`, sandbox/server.ts); null
 * while it keeps no hours, or cannot be asked: a job then goes ahead, and meets a closed site as PROVIDER_TIME_WINDOW.
 */
async function sandboxOffset(env: HoursEnv): Promise<number | null> {
  try {
    const answer = await fetch(new URL("/sandbox/clock", env.SANDBOX_BASE_URL), { signal: AbortSignal.timeout(CLOCK_WAIT_MS) });
    return answer.ok ? ((await answer.json()) as { offsetMs: number | null }).offsetMs : null;
  } catch {
    return null;
  }
}

/**
 * How far each provider's clock runs from ours, for one request: a real institution keeps our time, the sandbox its
 * own or none, asked once however many of its providers the request looks at.
 */
export function providerClocks(env: HoursEnv): (provider: ProviderDefinition) => Promise<number | null> {
  let sandbox: Promise<number | null> | undefined;
  return (provider) => (provider.sandbox ? (sandbox ??= sandboxOffset(env)) : Promise.resolve(0));
}

const shifted = (w: MaintenanceWindow, offset: number): MaintenanceWindow => ({ ...w, startsAt: w.startsAt - offset, endsAt: w.endsAt - offset });

const byStart = (a: MaintenanceWindow, b: MaintenanceWindow) => a.startsAt - b.startsAt;

/**
 * The provider's published windows (its clock running `offset` from ours; null: it keeps no hours) and the outages
 * operators announced for it (domain/catalog/outages.ts, in our time), in time order, from those open at `now` on.
 */
function calendar(provider: ProviderDefinition, now: number, count: number, offset: number | null, outages: readonly MaintenanceWindow[]): MaintenanceWindow[] {
  const daily = offset === null ? [] : nextWindows(provider.maintenance, now + offset, count).map((w) => shifted(w, offset));
  return [...daily, ...outages.filter((w) => w.endsAt > now)].sort(byStart);
}

/** The provider's next maintenance windows and announced outages, in our time. */
export function upcomingMaintenance(provider: ProviderDefinition, now: number, count: number, offset: number | null, outages: readonly MaintenanceWindow[] = []): MaintenanceWindow[] {
  return calendar(provider, now, count, offset, outages).slice(0, count);
}

/** The maintenance or announced outage a run from `now` lasting `runMs` would meet at the provider, in our time; null when none. */
export function maintenanceAt(provider: ProviderDefinition, now: number, runMs: number, offset: number | null, outages: readonly MaintenanceWindow[] = []): MaintenanceWindow | null {
  return firstMet(calendar(provider, now, 2 * Math.max(1, provider.maintenance.length), offset, outages), now, runMs);
}
