import { ApiError, fieldError } from "../../platform/errors/api-error";
import { destinationHost, destinationUrl } from "../../platform/http/public-destination";
import type { DeliveryRouteKind } from "./tables";

/**
 * Where a route may deliver: the rules webhooks follow (platform/http/public-destination.ts): an S3 endpoint is https
 * on a public name or address, on 443 or 8443; an SFTP server is a public name or address (any port: the address is
 * what the rules guard, and the scraper checks every address the name resolves to before it connects). With the local
 * stack's allowance (WEBHOOK_ALLOW_LOCAL_URLS) this machine's loopback passes too, nothing else private.
 */

type Checked = { config: Record<string, unknown> } | { field: string; problem: string };

function checked(kind: DeliveryRouteKind, config: Record<string, unknown>, allowLocal: boolean): Checked {
  if (kind === "S3") {
    const endpoint = destinationUrl(String(config.endpoint ?? ""), allowLocal);
    // Kept as written (the requests parse it as the check did, and the route shows what the partner typed).
    return "problem" in endpoint ? { field: "body.s3.endpoint", problem: endpoint.problem } : { config };
  }
  const host = destinationHost(String(config.host ?? ""), allowLocal);
  return "problem" in host ? { field: "body.sftp.host", problem: host.problem } : { config: { ...config, host: host.host } };
}

const message = (kind: DeliveryRouteKind, problem: string) => `${kind === "S3" ? "S3 주소(endpoint)" : "SFTP 서버(host)"}로 보낼 수 없습니다. ${problem}`;

/** The route's config to store (an SFTP host as the URL parser normalises it); or 400 INVALID_PARAM_FORMAT saying what is wrong with it. */
export function checkDestination(kind: DeliveryRouteKind, config: Record<string, unknown>, allowLocal: boolean): Record<string, unknown> {
  const result = checked(kind, config, allowLocal);
  if ("config" in result) return result.config;
  const text = message(kind, result.problem);
  throw new ApiError("INVALID_PARAM_FORMAT", { message: text, fieldErrors: [fieldError(result.field, "INVALID_PARAM_FORMAT", text)] });
}

/**
 * Why a stored route may no longer be delivered to, or null: checked again before every try, so a route stored before
 * a rule existed (or written around the API) gets nothing.
 */
export function destinationRefusal(kind: DeliveryRouteKind, config: Record<string, unknown>, allowLocal: boolean): string | null {
  const result = checked(kind, config, allowLocal);
  return "problem" in result ? `refused: ${message(kind, result.problem)}` : null;
}
