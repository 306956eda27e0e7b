import { ApiError, fieldError } from "../../platform/errors/api-error";
import { activeConnectionById } from "../partners/connections";

/**
 * The workspace a job is created in. A workspace acting for itself may name one of its credentials, never a
 * connection; a partner names the business by connection (the body's connectionId or the X-SVC-Business
 * header, which must then agree) and may pick among that business's credentials only once the header chose it,
 * since a connectionId stands for the business's default credential. The caller is what jobs read of an API key's
 * Principal (domain/api-keys/rights.ts, above jobs).
 */
export async function jobWorkspace(d1: D1Database, principal: { isPartner: boolean; workspaceId: string; connectionId?: string }, body: { credentialId?: string; connectionId?: string }): Promise<string> {
  if (body.connectionId && body.credentialId) {
    throw new ApiError("CONNECTION_AND_CREDENTIAL_ID_EXCLUSIVE", { fieldErrors: [fieldError("body.connectionId", "CONNECTION_AND_CREDENTIAL_ID_EXCLUSIVE")] });
  }
  if (!principal.isPartner) {
    if (body.connectionId) throw new ApiError("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", { fieldErrors: [fieldError("body.connectionId", "CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER")] });
    return principal.workspaceId;
  }
  if (principal.connectionId) {
    if (body.connectionId && body.connectionId !== principal.connectionId) {
      throw new ApiError("INVALID_PARAM_FORMAT", {
        message: "connectionId가 X-SVC-Business 헤더가 고른 사업자의 연결이 아닙니다. 둘 중 하나만 보내 주세요.",
        fieldErrors: [fieldError("body.connectionId", "INVALID_PARAM_FORMAT", "X-SVC-Business 헤더의 사업자와 다른 연결입니다.")],
      });
    }
    return principal.workspaceId;
  }
  if (body.connectionId) return (await activeConnectionById(d1, principal.workspaceId, body.connectionId)).workspaceId;
  if (body.credentialId) throw new ApiError("CREDENTIAL_ID_NOT_ALLOWED", { fieldErrors: [fieldError("body.credentialId", "CREDENTIAL_ID_NOT_ALLOWED")] });
  throw new ApiError("CONNECTION_REQUIRED_FOR_PARTNER", { fieldErrors: [fieldError("body.connectionId", "CONNECTION_REQUIRED_FOR_PARTNER")] });
}
