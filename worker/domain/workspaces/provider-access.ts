import { eq, inArray } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { workspaces } from "./tables";
import { ApiError } from "../../platform/errors/api-error";

export async function openToRealInstitutions(d1: D1Database, workspaceIds: string[]): Promise<void> {
  if (workspaceIds.length > 0) await database(d1).update(workspaces).set({ sandboxOnly: false }).where(inArray(workspaces.id, workspaceIds));
}

export async function isSandboxOnly(d1: D1Database, workspaceId: string): Promise<boolean> {
  return (await database(d1).select({ sandboxOnly: workspaces.sandboxOnly }).from(workspaces).where(eq(workspaces.id, workspaceId)).get())?.sandboxOnly ?? false;
}

/**
 * The one rule of a workspace whose owner has not confirmed their e-mail (sandboxOnly): the sandbox's providers only.
 * It holds no credential of a real institution, runs no job or schedule at one, and spends none of the deployment's
 * own keys at an official API (nts.business-status, Open Banking's consent): nobody has shown they can be reached at
 * the address that signed up.
 */
export const opensTo = (sandboxOnly: boolean, provider: { sandbox: boolean }): boolean => provider.sandbox || !sandboxOnly;

/** `opensTo`, else 403 WORKSPACE_ACCESS_DENIED saying what to do. */
export function assertOpenTo(sandboxOnly: boolean, provider: { sandbox: boolean }): void {
  if (opensTo(sandboxOnly, provider)) return;
  throw new ApiError("WORKSPACE_ACCESS_DENIED", { message: "이메일 주소를 확인하기 전에는 샌드박스 기관만 쓸 수 있습니다. 가입할 때 받은 메일의 링크를 눌러 주세요." });
}

/** `assertOpenTo` for a workspace named by id, read only for a real institution. */
export async function assertMayUseProvider(d1: D1Database, workspaceId: string, provider: { sandbox: boolean }): Promise<void> {
  if (!provider.sandbox) assertOpenTo(await isSandboxOnly(d1, workspaceId), provider);
}

/**
 * A certificate, or any credential of a tax portal, is checked against the business it is for (the certificate's
 * virtual ID, the portal account's business): a workspace without a business number cannot register one, rather
 * than skip the check. 400 INVALID_BUSINESS_REGISTRATION_NUMBER, saying so.
 */
export function assertBusinessFor(businessNumber: string | null, provider: { kind: string }, authMethod: string): void {
  if (businessNumber || (provider.kind !== "TAX_PORTAL" && authMethod !== "CERTIFICATE")) return;
  throw new ApiError("INVALID_BUSINESS_REGISTRATION_NUMBER", {
    message: "워크스페이스에 사업자등록번호가 없어 인증서나 국세 포털 자격 증명을 등록할 수 없습니다. 사업자등록번호가 있는 워크스페이스에서 등록해 주세요.",
  });
}
