import type { MaintenanceWindow } from "./maintenance";
import { upcomingOutages } from "./outages";
import { providerClocks, upcomingMaintenance } from "./provider-hours";
import type { ProviderDefinition } from "./providers";
import { providerState, type ProviderState } from "./status";
import { type PulseWindow, providerPulse } from "./provider-pulse";

/** How many of a provider's next windows it shows: today's and tomorrow's for a daily window. */
export const UPCOMING_WINDOWS = 3;

/** What changes about a provider from minute to minute: its next maintenance windows and its status. */
export interface LiveProvider {
  maintenance: MaintenanceWindow[];
  status: { state: ProviderState; lastHour: PulseWindow; lastDay: PulseWindow };
}

/**
 * The live side of `providers`, read once for the lot: the sandbox's clock once, announced outages in one D1 read,
 * each provider's pulse object once.
 */
export async function liveProviders(env: Pick<Env, "DB" | "SANDBOX_BASE_URL" | "PROVIDER_PULSES">, providers: readonly ProviderDefinition[], now: number = Date.now()): Promise<Map<string, LiveProvider>> {
  const clockOf = providerClocks(env);
  const outages = await upcomingOutages(env.DB, now, providers.length === 1 ? providers[0]!.code : undefined);
  const live = await Promise.all(
    providers.map(async (p): Promise<[string, LiveProvider]> => {
      const [offset, pulse] = await Promise.all([clockOf(p), providerPulse(env, p.code).summary(now)]);
      const maintenance = upcomingMaintenance(p, now, UPCOMING_WINDOWS, offset, outages.get(p.code));
      const inMaintenance = maintenance.some((w) => w.startsAt <= now && now < w.endsAt);
      return [p.code, { maintenance, status: { state: providerState(pulse, inMaintenance), ...pulse } }];
    }),
  );
  return new Map(live);
}
