import { standardWebhookHeaders } from "../../../contracts/webhooks";
import { sendMail } from "../mail/outbox";
import { postWebhook } from "../webhooks/post";
import { NO_PROVIDER } from "./rules";
import { log } from "../../platform/observability/telemetry";

export type AlertNoticeEnv = Pick<Env, "DB" | "MAIL" | "MAIL_FROM" | "MAIL_OUTBOX_ONLY" | "OPERATOR_ALERT_WEBHOOK_URL" | "OPERATOR_ALERT_WEBHOOK_SECRET" | "OPERATOR_ALERT_EMAIL">;

/** What operators are told when an alert opens and when it resolves: the chat webhook's JSON body, and the mail's text. */
export interface AlertNotice {
  id: string;
  type: "operator_alert.opened" | "operator_alert.resolved";
  alert: { id: string; code: string; providerCode: string; occurrences: number; threshold: number; windowSeconds: number; example: string; openedAt: string; resolvedAt: string | null };
}

function summary(n: AlertNotice): string {
  const what = n.alert.providerCode === NO_PROVIDER ? n.alert.code : `${n.alert.providerCode} ${n.alert.code}`;
  return n.type === "operator_alert.opened"
    ? `[운영 알림] ${what}: ${n.alert.windowSeconds / 60}분 안에 ${n.alert.threshold}회 이상 (예: ${n.alert.example})`
    : `[해소] ${what}: 발생이 기준 아래로 줄었습니다 (모두 ${n.alert.occurrences}회)`;
}

/**
 * Tells the operators' channels (docs/operations.md, "Alerts"): a chat tool's incoming webhook, signed as Standard
 * Webhooks are when a secret is set, and an e-mail. False when the webhook did not take it, so the caller tries again;
 * the mail is in the outbox either way (domain/mail/outbox.ts).
 */
export async function notifyOperators(env: AlertNoticeEnv, notice: AlertNotice): Promise<boolean> {
  const text = summary(notice);
  if (env.OPERATOR_ALERT_EMAIL) await sendMail(env, { to: env.OPERATOR_ALERT_EMAIL, subject: text, text: `${text}\n\n${JSON.stringify(notice.alert, null, 2)}` });
  if (!env.OPERATOR_ALERT_WEBHOOK_URL) return true;
  const body = JSON.stringify({ ...notice, text });
  const signed = env.OPERATOR_ALERT_WEBHOOK_SECRET ? await standardWebhookHeaders(notice.id, body, [env.OPERATOR_ALERT_WEBHOOK_SECRET], Math.floor(Date.now() / 1000)) : {};
  const sent = await postWebhook(env.OPERATOR_ALERT_WEBHOOK_URL, body, { "Content-Type": "application/json", ...signed });
  if ("error" in sent) log("error", "operator-alert-send-failed", { notice: notice.id, error: sent.error });
  return "status" in sent && sent.status >= 200 && sent.status < 300;
}
