import type { JobErrorCode } from "../../contracts/job-failures";
import { ProviderFailure, UnreadablePage } from "../adapter";

export type FailureRules = readonly (readonly [RegExp, JobErrorCode])[];

/**
 * A site's messages mapped to catalog codes, first match wins. A message no
 * rule knows is UNKNOWN, its text kept as the failure's detail, which goes
 * to the operators' log and never to the partner.
 */
export function failureFromRules(rules: FailureRules): (text: string) => ProviderFailure {
  return (text) => {
    const rule = rules.find(([pattern]) => pattern.test(text));
    return new ProviderFailure(rule ? rule[1] : "UNKNOWN", text.trim().slice(0, 200));
  };
}

/** A page the adapter knows, with content it cannot read: the site changed or answered garbage. */
export function malformed(detail: string): ProviderFailure {
  return new UnreadablePage("SCRAPING_RESPONSE_MALFORMED", detail);
}
