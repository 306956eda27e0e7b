import { type InstitutionResponse, ProviderFailure } from "../adapter";
import type { HometaxOptions } from "./options";

/**
 * `overload`: the portal asks for a pause (S8 `과부하제어` and HTTP 429/503, S1 `반복적인 호출…`); clients wait about
 * a minute and ask again. `block`: HTTP 400 `Request Blocked` (S1) or an `EIE2###`/`ECE10##` code (S2), which S2
 * reads as scraping detected: asking again would confirm it, so the unit stops and the job pauses.
 */
export type Throttle = "overload" | "block";

const OVERLOAD = /과부하제어|반복적인 호출은 시스템에 부하를 줄 수 있습니다/;
const BLOCK_CODE = /\b(?:EIE2\d{3}|ECE10\d{2})\b/;

/**
 * The text a refusal would be in: a JSON answer's `resultMsg` only, since its other fields are the business's own
 * documents (a remark may say anything); any other answer whole, except a static script, whose messages are the
 * page's own strings and no answer to this request.
 */
function refusalText(answer: InstitutionResponse): string {
  if (/\.js$/i.test(new URL(answer.url).pathname)) return "";
  try {
    const value = JSON.parse(answer.text) as { resultMsg?: unknown } | null;
    if (value && typeof value === "object" && !Array.isArray(value)) return JSON.stringify(value.resultMsg ?? "");
  } catch {
    // not JSON: read whole below
  }
  return answer.text;
}

export function throttleOf(answer: InstitutionResponse): Throttle | null {
  if (answer.status === 429 || answer.status === 503) return "overload";
  if (answer.status === 400 && /Request Blocked/.test(answer.text)) return "block";
  const text = refusalText(answer);
  if (BLOCK_CODE.test(text)) return "block";
  return OVERLOAD.test(text) ? "overload" : null;
}

/** The unit's end after a throttle: RATE_LIMITED, saying how long the job should leave the portal alone. */
export function rateLimited(throttle: Throttle, answer: InstitutionResponse, options: HometaxOptions): ProviderFailure {
  const where = new URL(answer.url).pathname;
  if (throttle === "block") return new ProviderFailure("RATE_LIMITED", `blocked at ${where} (HTTP ${answer.status})`, options.blockPauseSeconds);
  return new ProviderFailure("RATE_LIMITED", `overloaded at ${where} after ${options.throttleRetries} retries`, options.throttleWaitSeconds);
}
