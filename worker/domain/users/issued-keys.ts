import { and, eq } from "drizzle-orm";
import { revokeKey } from "../api-keys/revoke";
import { type IssuedKey, issueApiKey, keyIssuer } from "../api-keys/store";
import { ApiError } from "../../platform/errors/api-error";
import { database } from "../../platform/database/client";
import { workspaceMembers } from "./tables";

type KeyInput = Parameters<typeof issueApiKey>[1];

async function owns(d1: D1Database, userId: string, workspaceId: string): Promise<boolean> {
  const row = await database(d1)
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
    .get();
  return row?.role === "owner";
}

/**
 * Issues a key a person made (`issuedByUserId`: the owner on the console's keys page, the approver of a device
 * grant, or the person behind the key that made it through the API, `issuerOfKey`), recording them as its issuer.
 * A managing key is kept only while its issuer still owns the workspace: checked after the row is written, so a
 * demotion, hand-over or removal at the same moment either finds the key and revokes it with the issuer's other
 * managing keys (domain/users/members.ts), or is seen here, and the key is revoked before anyone holds it
 * (403 ADMIN_ACTION_FORBIDDEN).
 */
export async function issuePersonsKey(env: Pick<Env, "DB" | "REQUEST_GATES">, input: KeyInput & { issuedByUserId: string | null }): Promise<IssuedKey> {
  const issued = await issueApiKey(env.DB, input);
  if (input.issuedByUserId && issued.row.canManageKeys && !(await owns(env.DB, input.issuedByUserId, input.workspaceId))) {
    await revokeKey(env, input.workspaceId, issued.row.id);
    throw new ApiError("ADMIN_ACTION_FORBIDDEN", {
      message: "이 키를 만든 사람이 더 이상 워크스페이스 소유자(owner)가 아니어서 관리 권한이 있는 키를 만들 수 없습니다.",
    });
  }
  return issued;
}

/** The issuer a key made through the API inherits: the person behind the key that makes it, if any. */
export const issuerOfKey = (d1: D1Database, makerKeyId: string): Promise<string | null> => keyIssuer(d1, makerKeyId);
