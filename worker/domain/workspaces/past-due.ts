import { ApiError } from "../../platform/errors/api-error";

const DAY_MS = 86_400_000;

/** How long a workspace whose renewal charge failed keeps starting jobs: time to fix the card before anything stops. */
export const GRACE_MS = 7 * DAY_MS;

/** When a failed renewal is charged again, counted from its first failure; after the last, only the owner's "pay now". */
export const RETRY_AFTER_FIRST_FAILURE_MS = [1 * DAY_MS, 3 * DAY_MS, 5 * DAY_MS] as const;

/**
 * A job asked of a workspace past due beyond the grace period: 402 SUBSCRIPTION_PAST_DUE, saying how to lift it. Jobs
 * already running finish: the charge is ours to collect, not the partner's data to lose.
 */
export function assertNotPastDue(pastDueSince: number | null, now: number): void {
  if (pastDueSince === null || now - pastDueSince < GRACE_MS) return;
  throw new ApiError("SUBSCRIPTION_PAST_DUE", {
    message: "플랜 갱신 결제가 실패한 지 7일이 지나 새 수집 작업을 시작할 수 없습니다. 결제 카드를 확인하고 미결제 청구서를 결제하면(POST /api/v1/billing/invoices/{id}/pay) 곧바로 다시 쓸 수 있습니다.",
  });
}
