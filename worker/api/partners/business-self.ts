import type { Context } from "hono";
import { holdsCertificateOf } from "../../domain/credentials/store";
import { type ApiEnv, principalOf } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { workspaceBusinessNumber } from "../../domain/workspaces/store";

/**
 * The business number a workspace may see and cut off partners for: its own, proved by holding a live certificate
 * issued for it (checked against the number at registration). A business number typed at sign-up proves nothing,
 * and whoever could claim one must not end another's partner connections. 403 WORKSPACE_ACCESS_DENIED otherwise.
 */
export async function provenBusinessOf(c: Context<ApiEnv>): Promise<string> {
  const principal = principalOf(c);
  const businessNumber = principal.isPartner ? null : await workspaceBusinessNumber(c.env.DB, principal.workspaceId);
  if (businessNumber && (await holdsCertificateOf(c.env.DB, principal.workspaceId, businessNumber))) return businessNumber;
  throw new ApiError("WORKSPACE_ACCESS_DENIED", {
    message: "파트너 연결은 사업자 본인만 볼 수 있습니다. 사업자등록번호가 있는 워크스페이스에 그 사업자의 공동인증서를 등록해 사업자임을 확인해 주세요.",
  });
}
