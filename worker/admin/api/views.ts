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
  createdAt: isoTime(j.createdAt),
});
