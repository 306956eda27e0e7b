import { type CredentialRow, type ActiveJobCheck } from "../credentials/store";
import { deleteCredential } from "../credentials/retirement";
import { credentialView } from "../credentials/views";
import { emitEvent } from "../webhooks/emit";
import { deleteCredentialResults } from "../jobs/results-rows";
import { ApiError } from "../../platform/errors/api-error";

/** A job runs on the credential (or on a row of its login it replaced): the holder is told to try again shortly. */
const busy = (err: unknown): never => {
  if (err instanceof ApiError && err.code === "CREDENTIAL_HAS_ACTIVE_CONNECTIONS") {
    throw new ApiError("CREDENTIAL_HAS_ACTIVE_CONNECTIONS", { message: "지금 이 자격 증명으로 자료를 모으는 중입니다. 몇 분 뒤 같은 링크로 다시 철회해 주세요." });
  }
  throw err;
};

/**
 * The holder withdraws: what was collected with the credential goes, as `DELETE /credentials/{id}?deleteResults=true`
 * deletes it (deleteCredentialResults: its jobs' and those of the rows of the same login it replaced, refused to
 * every reader at once, their objects removed by the retention cron), since the consent it was collected under is
 * gone; then the credential is deleted as its workspace deletes it (its secret, identity and Open Banking tokens erased
 * at once; deleteCredential). Both are refused while a job runs on it, so no job is cut off half-written. The results
 * go first: a withdrawal refused between the two has deleted only what the holder asked to be deleted, and the link
 * still works to finish it, where the other order would use the link up with the results left. The consent record
 * keeps when. The workspace and the partner acting for it hear of it with `credential.revoked` (reason
 * HOLDER_WITHDREW). Only the first of two concurrent withdrawals announces it. Returns the credential after, and how
 * many jobs' results were deleted.
 */
export async function withdrawConsent(env: Pick<Env, "DB" | "WEBHOOKS">, credential: CredentialRow, hasActiveJob: ActiveJobCheck, now: number): Promise<{ credential: CredentialRow; resultsDeleted: number }> {
  const resultsDeleted = await deleteCredentialResults(env.DB, credential.workspaceId, credential.id, now).catch(busy);
  const after = await deleteCredential(env.DB, credential.workspaceId, credential.id, hasActiveJob, { holderAt: now }).catch(busy);
  if (!after) throw new ApiError("INVALID_TOKEN", { message: "이 링크의 자격 증명은 이미 철회되었습니다." });
  await emitEvent(env, { type: "credential.revoked", workspaceId: after.workspaceId, object: credentialView(after) }, now);
  return { credential: after, resultsDeleted };
}
