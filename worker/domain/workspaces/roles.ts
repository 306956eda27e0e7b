import type { MemberRole } from "./tables";
import { ApiError } from "../../platform/errors/api-error";

/**
 * Who may do what in a workspace: the one table that the console's pages and
 * forms (console/signed-in.ts `consoleMay`) and the API's managing routes
 * (api/managers-only.ts, applied where each route is defined) check. Owners manage the
 * workspace (members, keys, credentials, partner connections, webhooks,
 * billing); members run and read jobs, download results and see the
 * credentials the jobs use.
 *
 * API keys act for no person, so a key's role is its right: a key holding
 * `canManageKeys` acts as an owner, any other key as a member. Only an owner
 * reaches a key with that right: the console issues it only to an owner who
 * asks for it (members cannot issue keys at all), the device grant issues none
 * (a member's command-line key stays a member's), and the API issues it only
 * from a key that already holds it (domain/api-keys/rights.ts `issuedRights`).
 */
export const ACTIONS = {
  "jobs.read": { roles: ["owner", "member"], label: "수집 작업 조회" },
  "jobs.run": { roles: ["owner", "member"], label: "수집 실행" },
  "results.download": { roles: ["owner", "member"], label: "결과 내려받기" },
  "credentials.read": { roles: ["owner", "member"], label: "자격 증명 조회" },
  "credentials.manage": { roles: ["owner"], label: "자격 증명 등록·삭제" },
  "keys.manage": { roles: ["owner"], label: "API 키 조회·발급·폐기" },
  "connections.manage": { roles: ["owner"], label: "파트너 연결 생성·해지" },
  "webhooks.manage": { roles: ["owner"], label: "웹훅 엔드포인트 변경" },
  "deliveries.manage": { roles: ["owner"], label: "결과 전달 경로 변경" },
  // A schedule logs in with a credential at every occurrence, with nobody asking, for as long as it lives (after its
  // maker has left, too), and may send the results to a delivery route: a standing right over the credential.
  "schedules.manage": { roles: ["owner"], label: "수집 일정 변경" },
  "members.manage": { roles: ["owner"], label: "구성원 관리" },
  "workspace.leave": { roles: ["owner", "member"], label: "워크스페이스 나가기" },
  "billing.manage": { roles: ["owner"], label: "결제 관리" },
  // Deleted results never come back, for anyone in the workspace: the same hands that manage its credentials.
  "results.retention": { roles: ["owner"], label: "결과 보관 기간 변경·결과 삭제" },
  // The log names every key's requests and what they sent (redacted): as much of the workspace as the keys page shows.
  "logs.read": { roles: ["owner"], label: "API 요청 기록 조회" },
} as const satisfies Record<string, { roles: readonly MemberRole[]; label: string }>;

export type Action = keyof typeof ACTIONS;

/** Whether `role` may do `action`. */
export function roleMay(role: MemberRole, action: Action): boolean {
  return (ACTIONS[action].roles as readonly MemberRole[]).includes(role);
}

/** The role an API key acts with: owner with the managing right (`canManageKeys` of api-keys/rights.ts `KeyRights`), member without. */
export function keyRole(rights: { canManageKeys: boolean }): MemberRole {
  return rights.canManageKeys ? "owner" : "member";
}

/** The word with 은/는 or 을/를 as its last syllable takes (a final consonant takes 은, 을). */
function withParticle(word: string, pair: "은는" | "을를"): string {
  const last = word.charCodeAt(word.length - 1) - 0xac00;
  const closed = last >= 0 && last < 11172 && last % 28 !== 0;
  return word + pair[closed ? 0 : 1];
}

/** A console user's refusal: 403 ADMIN_ACTION_FORBIDDEN, saying who may and what a member can do instead. */
export function requireRole(role: MemberRole, action: Action): void {
  if (roleMay(role, action)) return;
  throw new ApiError("ADMIN_ACTION_FORBIDDEN", {
    message: `${withParticle(ACTIONS[action].label, "은는")} 워크스페이스 소유자(owner)만 할 수 있습니다. 구성원(member)은 수집 작업을 실행·조회하고 결과를 내려받을 수 있습니다. 필요하면 소유자에게 요청해 주세요.`,
  });
}

/** An API key's refusal: 403 ADMIN_ACTION_FORBIDDEN, naming the right the key lacks. */
export function requireKeyRight(rights: { canManageKeys: boolean }, action: Action): void {
  if (roleMay(keyRole(rights), action)) return;
  throw new ApiError("ADMIN_ACTION_FORBIDDEN", {
    message: `이 API 키에는 관리 권한(canManageKeys)이 없어 ${withParticle(ACTIONS[action].label, "을를")} 할 수 없습니다. 관리 권한이 있는 키로 요청해 주세요.`,
  });
}
