/** The roles a workspace's members hold (users/tables.ts stores them; roles.ts says what each may do). */
export const MEMBER_ROLES = ["owner", "member"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
