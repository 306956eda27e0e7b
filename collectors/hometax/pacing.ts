import { type Clock, Pacer, REAL_CLOCK } from "../kit/protocol/pacer";
import type { HometaxOptions } from "./options";

/** What the adapter takes from the world besides the portal: injected so tests ask for waits without waiting them. */
export interface HometaxDeps {
  /** Wall clock: the integrity suffix carries its second, and the pacer measures from it. */
  now: () => number;
  /** Pacing and the pauses after an overload answer. */
  sleep: (ms: number) => Promise<void>;
  /** The pacing jitter's draw. */
  random: () => number;
}

export const REAL_DEPS: HometaxDeps = { now: REAL_CLOCK.now, sleep: REAL_CLOCK.sleep, random: Math.random };

/**
 * One login's pace (docs/institutions/hometax.md, "Pacing and throttling"): every request of the login, list
 * pages and details alike, at least `requestIntervalMs` plus jitter after the one before, as S1 waits 1 s.
 */
export function loginPacer(options: HometaxOptions, deps: HometaxDeps): Pacer {
  const clock: Clock = { now: deps.now, sleep: deps.sleep };
  return new Pacer(options.requestIntervalMs, { jitterMs: options.requestJitterMs, clock, random: deps.random });
}
