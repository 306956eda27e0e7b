import type { SchemaDefinition } from "../catalog/schemas";
import { ApiError, fieldError } from "../../platform/errors/api-error";

/** What the institution showed of each kind of target for a credential, by the schemas' target kinds. */
export type KnownTargets = Partial<Record<"accounts" | "cards", { ids: string[]; seenAt: number }>>;

const digits = (s: string) => s.replace(/\D/g, "");

/** Whether a target id the institution shows is the one a job named: account numbers compare by their digits. */
export function isSameTarget(shownId: string, named: string): boolean {
  return shownId === named || (digits(shownId) !== "" && digits(shownId) === digits(named));
}

/** The named ids the institution does not show among `shown`. */
export function notShown(named: readonly string[], shown: readonly string[]): string[] {
  return named.filter((n) => !shown.some((s) => isSameTarget(s, n)));
}

/** How a message lists the targets an institution shows. */
export function shownList(shown: readonly string[]): string {
  return shown.length ? shown.join(", ") : "없음";
}

/**
 * A job naming accounts its credential's institution did not show the last time it looked is refused before
 * anything is stored: 404 ACCOUNT_NOT_FOUND, listing what it does show. Accounts never looked at yet, and cards
 * (whose numbers the issuer shows masked), are settled by the job itself (INVALID_ACCOUNT_FOR_SERVICE,
 * INVALID_CARD_FOR_SERVICE, with the same list).
 */
export function assertAccountsShown(schema: SchemaDefinition, params: Record<string, unknown>, known: KnownTargets | null): void {
  if (schema.targets !== "accounts" || !schema.targetFilterParam) return;
  const shown = known?.accounts?.ids;
  const named = params[schema.targetFilterParam] as string[] | undefined;
  if (!shown || !named) return;
  const missing = notShown(named, shown);
  if (missing.length === 0) return;
  const message = `기관이 이 자격 증명으로 보여 주지 않는 계좌입니다: ${missing.join(", ")}. 기관이 보여 주는 계좌: ${shownList(shown)}`;
  throw new ApiError("ACCOUNT_NOT_FOUND", {
    message,
    fieldErrors: missing.map((m) => fieldError(`body.params.${schema.targetFilterParam}[${named.indexOf(m)}]`, "ACCOUNT_NOT_FOUND", message)),
  });
}
