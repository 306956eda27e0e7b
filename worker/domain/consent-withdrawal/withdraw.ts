import type { Bindings } from "../../env";
import { deleteCredential, type CredentialRow, type ActiveJobCheck } from "../credentials/store";
import { credentialView } from "../credentials/views";
import { emitEvent } from "../webhooks/emit";
import { ApiError } from "../../platform/errors/api-error";

/**
 * The holder withdraws: the credential is deleted as its workspace deletes it (its secret, identity and Open Banking
 * tokens erased at once; deleteCredential), refused the same way while a job runs on it, so no job is cut off
 * half-written; the consent record keeps when. The workspace and the partner acting for it hear of it with
 * `credential.revoked` (reason HOLDER_WITHDREW). Only the first of two concurrent withdrawals announces it.
 */
export async function withdrawConsent(env: Pick<Bindings, "DB" | "WEBHOOKS">, credential: CredentialRow, hasActiveJob: ActiveJobCheck, now: number): Promise<CredentialRow> {
  const after = await deleteCredential(env.DB, credential.workspaceId, credential.id, hasActiveJob, { holderAt: now }).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === "CREDENTIAL_HAS_ACTIVE_CONNECTIONS") {
      throw new ApiError("CREDENTIAL_HAS_ACTIVE_CONNECTIONS", { message: "지금 이 자격 증명으로 자료를 모으는 중입니다. 몇 분 뒤 같은 링크로 다시 철회해 주세요." });
    }
    throw err;
  });
  if (!after) throw new ApiError("INVALID_TOKEN", { message: "이 링크의 자격 증명은 이미 철회되었습니다." });
  await emitEvent(env, { type: "credential.revoked", workspaceId: after.workspaceId, object: credentialView(after) }, now);
  return after;
}
