import { allProviders } from "../catalog/providers";
import { findSchema } from "../catalog/schemas";

/** Every provider and schema pair a job or a schedule can ask for, as the console's forms offer them. */
export const targetChoices = () =>
  allProviders().flatMap((p) => p.schemas.map((schema) => ({ value: `${p.code}|${schema}`, label: `${p.name} · ${findSchema(schema)?.title ?? schema}` })));

/** The provider and schema a form's `target` names. */
export function parseTarget(target: string | undefined): { providerCode: string; schema: string } {
  const [providerCode = "", schema = ""] = (target ?? "").split("|");
  return { providerCode, schema };
}
