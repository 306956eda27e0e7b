import type { OperatorRole } from "./tables";
import { ApiError } from "../../platform/errors/api-error";

/**
 * The one table of what each operator role may do (docs/operations.md): viewers look, support acts on workspaces and
 * jobs within what partners pay for, admins also change what they pay for and announce outages.
 */
const MAY: Record<OperatorAction, readonly OperatorRole[]> = {
  "workspaces.read": ["viewer", "support", "admin"],
  "audit.read": ["viewer", "support", "admin"],
  "alerts.read": ["viewer", "support", "admin"],
  "reports.read": ["viewer", "support", "admin"],
  "reports.close": ["support", "admin"],
  "workspaces.suspend": ["support", "admin"],
  "jobs.rerun": ["support", "admin"],
  "workspaces.plan": ["admin"],
  "workspaces.credit": ["admin"],
  "invoices.refund": ["admin"],
  "outages.manage": ["admin"],
};

export type OperatorAction = "workspaces.read" | "audit.read" | "alerts.read" | "reports.read" | "reports.close" | "workspaces.suspend" | "jobs.rerun" | "workspaces.plan" | "workspaces.credit" | "invoices.refund" | "outages.manage";

export const operatorMay = (role: OperatorRole, action: OperatorAction): boolean => MAY[action].includes(role);

export function assertOperatorMay(role: OperatorRole, action: OperatorAction): void {
  if (!operatorMay(role, action)) throw new ApiError("ADMIN_ACTION_FORBIDDEN", { message: `이 관리 작업(${action})은 ${role} 역할에 허용되지 않습니다.` });
}
