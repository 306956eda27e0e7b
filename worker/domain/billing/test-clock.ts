import { ApiError } from "../../platform/errors/api-error";
import type { PaymentGateway } from "./gateway";
import type { BillingEnv } from "./plan-change";
import { renewSubscriptions } from "./renewal";
import { applyBookedChanges, endPeriodAt } from "./subscriptions";
import { flagOn } from "../../platform/configuration";

/** Whether this deployment keeps a test clock: the local stack and the tests (BILLING_TEST_CLOCK=1), never production. */
export const testClockOn = (env: Pick<Env, "BILLING_TEST_CLOCK">): boolean => flagOn(env.BILLING_TEST_CLOCK);

/**
 * The sandbox's test clock, as payment platforms offer one for trying a billing integration: the workspace's paid
 * period ends now and what the cron does at a period's end happens at once for it (the booked change applied, or the
 * renewal charged). 404 RESOURCE_NOT_FOUND where there is no test clock or nothing is paid for.
 */
export async function endPeriodNow(env: BillingEnv & Pick<Env, "BILLING_TEST_CLOCK">, gateway: PaymentGateway, workspaceId: string, now: number = Date.now()): Promise<void> {
  if (!testClockOn(env) || !(await endPeriodAt(env.DB, workspaceId, now))) {
    throw new ApiError("RESOURCE_NOT_FOUND", { message: "테스트 시계는 샌드박스에서, 결제 기간이 있는 워크스페이스에만 있습니다." });
  }
  await applyBookedChanges(env.DB, now, workspaceId);
  await renewSubscriptions(env, gateway, now, workspaceId);
}
