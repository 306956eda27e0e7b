import { allProviders } from "../domain/catalog/providers";
import { findSchema } from "../domain/catalog/schemas";
import type { CredentialRow } from "../domain/credentials/store";
import { providerName } from "../web/provider-name";

/** Every provider and schema pair a job or a schedule can ask for. */
const targetChoices = () =>
  allProviders().flatMap((p) => p.schemas.map((schema) => ({ value: `${p.code}|${schema}`, label: `${p.name} · ${findSchema(schema)?.title ?? schema}` })));

/**
 * What a job or schedule form asks first: the provider and schema (`target`), and the credential to log in with (each
 * option says its auth method, for the hints of a form that cares: schedules on a 간편인증 login).
 */
export function TargetFields(props: { credentials: CredentialRow[]; defaultCredential: string }) {
  return (
    <>
      <label for="target">기관과 데이터</label>
      <select id="target" name="target" required>
        {targetChoices().map((choice) => (
          <option value={choice.value}>{choice.label}</option>
        ))}
      </select>
      <label for="credentialId">로그인할 자격 증명</label>
      <select id="credentialId" name="credentialId">
        <option value="">{props.defaultCredential}</option>
        {props.credentials.map((row) => (
          <option value={row.id} data-auth-method={row.authMethod}>
            {row.label ?? row.id.slice(0, 8)} · {providerName(row.providerCode)}
          </option>
        ))}
      </select>
    </>
  );
}

/** The provider and schema a form's `target` names. */
export function parseTarget(target: string | undefined): { providerCode: string; schema: string } {
  const [providerCode = "", schema = ""] = (target ?? "").split("|");
  return { providerCode, schema };
}
