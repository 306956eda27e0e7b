import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "../http-kit";
import { REPLICA_SERVICE_KEY, statusItemOf, UNAPPROVED_SERVICE_KEY } from "./ground-truth";

export interface NtsBusinessStatusReplicaOptions {
  /** Answer every call with the service's INTERNAL_ERROR (HTTP 500), as an outage would. */
  internalError?: boolean;
}

const MAX_NUMBERS = 100;
const PATH = "/api.odcloud.kr/api/nts-businessman/v1/status";

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The NTS business-status API as data.go.kr serves it (docs/institutions/nts-business-status.md §9), under
 * `/nts-business-status/api.odcloud.kr/`: `POST …/v1/status?serviceKey=…` with `{"b_no": [...]}`. The gateway's
 * refusals come first (no key or a wrong one: -401; a key not approved for this service: -3), then the service's own
 * `status_code` errors, then one item per number in the order asked; unknown numbers are data, not errors.
 */
export function ntsBusinessStatusReplica(options: NtsBusinessStatusReplicaOptions = {}) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const path = url.pathname.replace(/^\/nts-business-status/, "");
    if (path !== PATH || req.method !== "POST") return sendJson(res, 404, { code: -404, msg: "존재하지 않는 API 입니다." });
    // URLSearchParams decodes the query once: the "Encoding" key as issued and the "Decoding" key encoded once arrive alike.
    const key = url.searchParams.get("serviceKey");
    // Invented: no source quotes the gateway's -401 text or either refusal's HTTP status (N2 says 4xx).
    if (key === UNAPPROVED_SERVICE_KEY) return sendJson(res, 403, { code: -3, msg: "등록되지 않은 서비스 입니다." });
    if (key !== REPLICA_SERVICE_KEY) return sendJson(res, 401, { code: -401, msg: "유효하지 않은 인증키 입니다." });
    if (options.internalError) return sendJson(res, 500, { status_code: "INTERNAL_ERROR" });
    let body: unknown;
    try {
      body = JSON.parse(await readText(req));
    } catch {
      return sendJson(res, 400, { status_code: "BAD_JSON_REQUEST" });
    }
    const numbers = (body as { b_no?: unknown } | null)?.b_no;
    if (!Array.isArray(numbers) || numbers.length === 0 || numbers.some((n) => typeof n !== "string")) return sendJson(res, 411, { status_code: "REQUEST_DATA_MALFORMED" });
    if (numbers.length > MAX_NUMBERS) return sendJson(res, 413, { status_code: "TOO_LARGE_REQUEST" });
    const data = (numbers as string[]).map((n) => statusItemOf(n.replace(/-/g, "")));
    sendJson(res, 200, { request_cnt: data.length, match_cnt: data.filter((d) => d.b_stt_cd !== "").length, status_code: "OK", data });
  };
}
