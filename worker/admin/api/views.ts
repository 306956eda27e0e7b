import type { CredentialRow } from "../../domain/credentials/store";
import { refusalOf } from "../../domain/credentials/views";
import type { JobRow } from "../../domain/jobs/store";
import { isoTime, isoTimeOrNull } from "../../platform/lib/iso-time";
import type { WorkspaceRow } from "../../domain/workspaces/store";

export const workspaceView = (w: WorkspaceRow) => ({
  id: w.id,
  name: w.name,
  businessNumber: w.businessNumber,
  plan: w.plan,
  isPartner: w.isPartner,
  partnerWorkspaceId: w.billingWorkspaceId,
  suspendedAt: isoTimeOrNull(w.suspendedAt),
  createdAt: isoTime(w.createdAt),
});

export const jobSummaryView = (j: JobRow) => ({
  id: j.id,
  workspaceId: j.workspaceId,
  providerCode: j.providerCode,
  schema: j.schema,
  status: j.status,
  errorCode: j.error?.code ?? null,
  errorMessage: j.error?.message ?? null,
  credentialId: j.credentialId,
  createdAt: isoTime(j.createdAt),
  finishedAt: isoTimeOrNull(j.finishedAt),
});

/** A credential as operators see it: no secret, and the institution's refusal beside its status (an ACTIVE one may be refused). */
export const credentialSummaryView = (r: CredentialRow) => {
  const refusal = refusalOf(r);
  return { id: r.id, providerCode: r.providerCode, authMethod: r.authMethod, status: r.status, refusal: refusal && { code: refusal.code, message: refusal.message }, label: r.label, createdAt: isoTime(r.createdAt) };
};
