import type { JobErrorCode } from "./job-failures";
import { ProviderFailure } from "./adapter";

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

/** The page is not what the adapter knows: the site changed or answered garbage. */
export function malformed(detail: string): ProviderFailure {
  return new ProviderFailure("PROVIDER_RESPONSE_MALFORMED", detail);
}
