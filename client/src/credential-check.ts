import type { CollectClient, WaitOptions } from "./client";
import type { JobErrorCategory } from "./errors";
import type { CreateDataJobRequest, TerminalDataJob } from "./types";

const KST_OFFSET_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The spec's credential check after a credential is registered or changed:
 * the provider's smallest job (a schema without a period if it has one, else
 * yesterday in KST). The service also checks each registration with one login
 * of its own (the credential's `check`, docs/credentials.md).
 */
export async function credentialCheckRequest(client: CollectClient, providerCode: string, now = Date.now()): Promise<CreateDataJobRequest> {
  const provider = await client.getProvider(providerCode);
  const details = await Promise.all(provider.schemas.map((schema) => client.getSchema(schema)));
  const undated = details.find((detail) => !("dateRangeStart" in ((detail.params.properties ?? {}) as object)));
  if (undated) return { providerCode, schema: undated.id, params: {} };
  const yesterday = new Date(now + KST_OFFSET_MS - DAY_MS).toISOString().slice(0, 10);
  return { providerCode, schema: provider.schemas[0]!, params: { dateRangeStart: yesterday, dateRangeEnd: yesterday } };
}

/** VALID: the institution accepted the login; REFUSED: fix or register the credential; UNDETERMINED: the job failed for another reason. */
export type CredentialVerdict = "VALID" | "REFUSED" | "UNDETERMINED";

export interface CredentialCheck {
  verdict: CredentialVerdict;
  job: TerminalDataJob;
  /** The failure's category when the job failed (CREDENTIAL when the institution refused the login). */
  category: JobErrorCategory | undefined;
}

/** Categories that say the login itself went through, whatever else stopped the job. */
const LOGIN_PASSED = new Set(["USER_ENVIRONMENT", "INVALID_INPUT"]);
const CREDENTIAL_REFUSED = new Set(["CREDENTIAL", "CREDENTIAL_MISSING"]);

export async function checkCredential(client: CollectClient, providerCode: string, options: WaitOptions = {}): Promise<CredentialCheck> {
  const job = await client.runJob(await credentialCheckRequest(client, providerCode), { ...options, throwOnFailure: false });
  if (job.kind === "Succeeded") return { verdict: "VALID", job, category: undefined };
  const category = job.error.category;
  const verdict: CredentialVerdict = CREDENTIAL_REFUSED.has(category) ? "REFUSED" : LOGIN_PASSED.has(category) ? "VALID" : "UNDETERMINED";
  return { verdict, job, category };
}
