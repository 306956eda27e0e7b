import { ProviderFailure, type InstitutionResponse, type RawRecord } from "../adapter";
import { UNREGISTERED_TEXT } from "./hosts";
import { BusinessStatusRecord } from "../../contracts/records/business";

/** One item of the status answer's `data` (docs/institutions/nts-business-status.md §3); the replica answers the same. */
export interface StatusItem {
  b_no: string;
  b_stt: string;
  b_stt_cd: string;
  tax_type: string;
  tax_type_cd: string;
  end_dt: string;
  utcc_yn: string;
  tax_type_change_dt: string;
  invoice_apply_dt: string;
  rbf_tax_type?: string;
  rbf_tax_type_cd?: string;
}

/** The record's fields a registered number's item fills (contracts/records/business.ts). */
const STATUS_FIELDS = Object.keys(BusinessStatusRecord.shape).filter((field) => !["schema", "businessNumber", "registered"].includes(field));

const REQUIRED = ["b_no", "b_stt", "b_stt_cd", "tax_type", "tax_type_cd", "end_dt", "utcc_yn", "tax_type_change_dt", "invoice_apply_dt"] as const;
// Added in v1.1 (N4): an item without them is still read, the previous tax type null.
const OPTIONAL = ["rbf_tax_type", "rbf_tax_type_cd"] as const;

const malformed = (detail: string) => new ProviderFailure("PROVIDER_RESPONSE_MALFORMED", `nts status: ${detail}`);

/**
 * What the service answers with `status_code` other than OK (N3, N7, N9, N11): every one but INTERNAL_ERROR says our
 * request was wrong, which the adapter's own checks (10 digits, at most 100) should have made impossible.
 */
const STATUS_CODE_FAILURES: Record<string, ProviderFailure["code"]> = {
  BAD_JSON_REQUEST: "INTERNAL_ERROR",
  REQUEST_DATA_MALFORMED: "INTERNAL_ERROR",
  TOO_LARGE_REQUEST: "INTERNAL_ERROR",
  INTERNAL_ERROR: "PROVIDER_ERROR",
  HTTP_ERROR: "PROVIDER_ERROR",
};

/**
 * The gateway's refusals (`{"code": <negative>, "msg"}`, N2, N3): the deployment's key is missing or wrong (-401) or
 * not approved for this service (-3). Neither is anything a partner can change: the operators must fix the key.
 */
function gatewayFailure(code: number, msg: string): ProviderFailure {
  if (code === -401) return new ProviderFailure("INTERNAL_ERROR", `nts gateway -401: the service key (NTS_SERVICE_KEY) is missing or invalid: ${msg}`);
  if (code === -3) return new ProviderFailure("INTERNAL_ERROR", `nts gateway -3: the service key is not approved for this API: ${msg}`);
  return new ProviderFailure("UNKNOWN", `nts gateway ${code}: ${msg}`);
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The answer's failure, if it is one: gateway refusals, `status_code` errors and bare HTTP errors, in that order. */
export function failureOf(response: InstitutionResponse): ProviderFailure | null {
  const body = json(response.text);
  const record = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  // N3 reads `code` whatever the HTTP status (its -3 sample is a 200); N2 only on a 4xx: either way it is a refusal.
  if (record && typeof record.code === "number" && record.code < 0) return gatewayFailure(record.code, String(record.msg ?? ""));
  const statusCode = record && typeof record.status_code === "string" ? record.status_code : null;
  if (statusCode && statusCode !== "OK") {
    const code = STATUS_CODE_FAILURES[statusCode] ?? "UNKNOWN";
    return new ProviderFailure(code, `nts status_code ${statusCode} (HTTP ${response.status})`);
  }
  if (response.status === 429) return new ProviderFailure("RATE_LIMITED", "nts answered HTTP 429");
  if (response.status >= 500) return new ProviderFailure("PROVIDER_ERROR", `nts answered HTTP ${response.status}`);
  // 400, 404, 411 and 413 are what sources give the request errors (N7, N8, N9): our request, not the institution.
  if (response.status >= 400) return new ProviderFailure("INTERNAL_ERROR", `nts refused the request: HTTP ${response.status}`);
  if (!record) return malformed("the answer is not a JSON object");
  return null;
}

const date = (value: string, field: string): string | null => {
  if (value === "") return null;
  const digits = value.replace(/-/g, "");
  if (!/^\d{8}$/.test(digits)) throw malformed(`${field} is not a date`);
  const iso = `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
  if (Number.isNaN(Date.parse(iso))) throw malformed(`${field} is not a date`);
  return iso;
};

const text = (value: string | undefined): string | null => (value === undefined || value === "" ? null : value);

function flag(value: string): boolean | null {
  if (value === "") return null;
  if (value === "Y" || value === "N") return value === "Y";
  throw malformed("utcc_yn is neither Y nor N");
}

function itemOf(raw: unknown): StatusItem {
  if (!raw || typeof raw !== "object") throw malformed("a data item is not an object");
  const item = raw as Record<string, unknown>;
  for (const key of REQUIRED) if (typeof item[key] !== "string") throw malformed(`a data item has no ${key}`);
  for (const key of OPTIONAL) if (item[key] !== undefined && typeof item[key] !== "string") throw malformed(`${key} is not text`);
  return item as unknown as StatusItem;
}

/** One number's record (docs/institutions/nts-business-status.md §4): an unregistered number is a record too, `registered` false. */
export function recordOf(item: StatusItem): RawRecord {
  const registered = !(item.b_stt_cd === "" && item.tax_type === UNREGISTERED_TEXT);
  if (!registered) {
    // A number NTS does not know has nothing more to say: every field but the number and the flag is null.
    return { ...Object.fromEntries(STATUS_FIELDS.map((field) => [field, null])), businessNumber: item.b_no, registered: false };
  }
  if (item.b_stt_cd === "") throw malformed("a registered item has no b_stt_cd");
  return {
    businessNumber: item.b_no,
    registered: true,
    status: text(item.b_stt),
    statusCode: item.b_stt_cd,
    taxType: text(item.tax_type),
    taxTypeCode: text(item.tax_type_cd),
    closureDate: date(item.end_dt, "end_dt"),
    unitTaxationClosure: flag(item.utcc_yn),
    taxTypeChangeDate: date(item.tax_type_change_dt, "tax_type_change_dt"),
    invoiceApplyDate: date(item.invoice_apply_dt, "invoice_apply_dt"),
    // `해당없음` / `99` is the answer's own "none" (N2, N4).
    previousTaxType: item.rbf_tax_type_cd === "99" ? null : text(item.rbf_tax_type),
    previousTaxTypeCode: item.rbf_tax_type_cd === "99" ? null : text(item.rbf_tax_type_cd),
  };
}

/**
 * The records of one call, in the order asked: exactly one item per number asked (N7 says they come in request order;
 * they are matched by `b_no` all the same), or the answer is malformed and no record of it is kept.
 */
export function recordsOf(response: InstitutionResponse, asked: readonly string[]): RawRecord[] {
  const failure = failureOf(response);
  if (failure) throw failure;
  const body = json(response.text) as Record<string, unknown>;
  if (!Array.isArray(body.data)) throw malformed("no data list");
  if (body.request_cnt !== undefined && Number(body.request_cnt) !== asked.length) throw malformed(`request_cnt ${String(body.request_cnt)} for ${asked.length} numbers`);
  const byNumber = new Map<string, StatusItem>();
  for (const raw of body.data) {
    const item = itemOf(raw);
    if (byNumber.has(item.b_no)) throw malformed("a number answered twice");
    byNumber.set(item.b_no, item);
  }
  if (byNumber.size !== asked.length) throw malformed(`${byNumber.size} items for ${asked.length} numbers`);
  return asked.map((number) => {
    const item = byNumber.get(number);
    if (!item) throw malformed("a number asked is not answered");
    return recordOf(item);
  });
}
