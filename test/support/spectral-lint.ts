import path from "node:path";
import { Document, type ISpectralDiagnostic, Ruleset, Spectral } from "@stoplight/spectral-core";
import { Json } from "@stoplight/spectral-parsers";

/** Spectral's `oas` and OWASP API Security rulesets with this API's exceptions (docs/security.md, "The contract says its limits"). */
const SPECTRAL_RULESET = path.resolve(import.meta.dirname, "../../.spectral.mjs");

/**
 * A served OpenAPI document's Spectral findings by severity (errors, warnings), each a rule with where it was found.
 * `fileName` is what the ruleset's overrides match (openapi.json for the partners', admin-openapi.json for the operators').
 */
export async function spectralFindings(document: string, fileName: string): Promise<{ errors: Record<string, string[]>; warnings: Record<string, string[]> }> {
  const { default: definition } = (await import(SPECTRAL_RULESET)) as { default: ConstructorParameters<typeof Ruleset>[0] };
  const spectral = new Spectral();
  spectral.setRuleset(new Ruleset(definition, { source: SPECTRAL_RULESET }));
  const results = await spectral.run(new Document(document, Json, fileName));
  const bySeverity = (severity: number) =>
    results
      .filter((r) => r.severity === severity)
      .reduce<Record<string, string[]>>((groups, r: ISpectralDiagnostic) => {
        (groups[String(r.code)] ??= []).push(`${r.path.join(".")}: ${r.message}`);
        return groups;
      }, {});
  return { errors: bySeverity(0), warnings: bySeverity(1) };
}
