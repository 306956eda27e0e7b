import { noteAlerted } from "../alerts/raise";
import { kstDate } from "../../../contracts/korean-time";
import { REQUEST_LOG_RETENTION_MS, storedLogBytes } from "./store";

/**
 * What request_logs may hold, summed over every workspace's days, before operators hear of it: a fifth of D1's 10 GB,
 * long before the database refuses every tenant's writes (docs/capacity.md, "The request log").
 */
export const REQUEST_LOG_ALERT_BYTES = 2 * 1024 ** 3;

/**
 * A cron step: counts an INTERNAL_ERROR occurrence for the pseudo-provider `request-logs` each minute the log's
 * retention holds more than REQUEST_LOG_ALERT_BYTES, so an alert opens after a few minutes of it (domain/alerts/rules.ts)
 * and resolves once the purge or a smaller budget brings it down. Returns the bytes it found.
 */
export async function watchRequestLogSize(env: Pick<Env, "DB" | "ALERT_DESKS">, now: number = Date.now()): Promise<number> {
  const bytes = await storedLogBytes(env.DB, kstDate(now - REQUEST_LOG_RETENTION_MS));
  if (bytes >= REQUEST_LOG_ALERT_BYTES) {
    const mb = (n: number) => Math.round(n / 1024 ** 2);
    await noteAlerted(env, "INTERNAL_ERROR", "request-logs", `request_logs에 최근 30일 약 ${mb(bytes)} MB (경보 기준 ${mb(REQUEST_LOG_ALERT_BYTES)} MB): docs/capacity.md`);
  }
  return bytes;
}
