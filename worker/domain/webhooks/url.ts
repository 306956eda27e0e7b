import { ApiError, fieldError } from "../../platform/errors/api-error";
import { destinationUrl, localDestinationsAllowed, MAX_DESTINATION_URL_LENGTH } from "../../platform/http/public-destination";

/**
 * SSRF defence at the door: a webhook URL must be https on a public name or a public IP literal, on 443 or 8443
 * (platform/http/public-destination.ts, the rules every destination a customer names follows). With `allowLocal` (the
 * local stack and tests only, WEBHOOK_ALLOW_LOCAL_URLS) http or https to localhost, 127.0.0.1 or [::1] is accepted
 * too, so a receiver on the developer's machine can be registered.
 */

export const MAX_WEBHOOK_URL_LENGTH = MAX_DESTINATION_URL_LENGTH;

function refuse(detail: string, field: string): ApiError {
  const message = `웹훅 URL이 올바르지 않습니다. ${detail}`;
  return new ApiError("PARTNER_WEBHOOK_URL_INVALID", { message, fieldErrors: [fieldError(field, "PARTNER_WEBHOOK_URL_INVALID", message)] });
}

/** The URL to store, or PARTNER_WEBHOOK_URL_INVALID saying what is wrong with it. */
export function checkWebhookUrl(raw: string, allowLocal: boolean, field = "body.url"): string {
  const checked = destinationUrl(raw, allowLocal);
  if ("problem" in checked) throw refuse(checked.problem, field);
  return checked.url;
}

/**
 * Why a stored URL may no longer be sent to, or null: checked again before every attempt, so an endpoint stored
 * before a rule existed (or written around the API) gets nothing.
 */
export function deliveryUrlRefusal(url: string, allowLocal: boolean): string | null {
  const checked = destinationUrl(url, allowLocal);
  return "problem" in checked ? `refused: 웹훅 URL이 올바르지 않습니다. ${checked.problem}` : null;
}

/** Whether this deployment lets webhooks reach the local machine (never set in production). */
export const localUrlsAllowed = localDestinationsAllowed;
