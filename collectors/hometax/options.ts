import type { SerialForm } from "./signed-challenge";

/**
 * The protocol questions no public source settles (docs/institutions/hometax.md, "Open questions"), each a named
 * option with the safer default; the live check (scripts/live-check.ts) reports which the real portal accepted.
 */
export interface HometaxOptions {
  /** Append the request-integrity suffix the portal's own pages append. Sending it is what a browser does. */
  integritySuffix: boolean;
  /** Longest period one list query asks for: the sources split by 3 months; the portal's one quoted refusal is at 6. */
  queryMonths: 3 | 6;
  /** Serial-number forms of `logSgnt`, tried in order while the portal refuses the signature. */
  serialForms: readonly SerialForm[];
}

export const DEFAULT_OPTIONS: HometaxOptions = { integritySuffix: true, queryMonths: 3, serialForms: ["bytes", "prefixed"] };
