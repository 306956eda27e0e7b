import type { SerialForm } from "./signed-challenge";

/**
 * The protocol questions no public source settles (docs/institutions/hometax.md, "Open questions", "Pacing and
 * throttling"), each a named option with the safer default; the live check (scripts/live-check.ts) reports which
 * the real portal accepted.
 */
export interface HometaxOptions {
  /** Append the request-integrity suffix the portal's own pages append. Sending it is what a browser does. */
  integritySuffix: boolean;
  /** Longest period one list query asks for: the sources split by 3 months; the portal's one quoted refusal is at 6. */
  queryMonths: 3 | 6;
  /** Serial-number forms of `logSgnt`, tried in order while the portal refuses the signature. */
  serialForms: readonly SerialForm[];
  /** Least time between two requests of one login, ms: S1 waits 1 s between pages and after each detail, S3 0.2 s. */
  requestIntervalMs: number;
  /** Up to this much more, drawn per request (ms); no source uses jitter, it keeps the pace from looking machine-made. */
  requestJitterMs: number;
  /** Wait before asking again after an overload answer (`과부하제어`, HTTP 429/503), s: S8 61, S13 60. */
  throttleWaitSeconds: number;
  /** Times one request is asked again after an overload answer before the unit fails RATE_LIMITED: S8 2, S13 3. */
  throttleRetries: number;
  /** What RATE_LIMITED says to wait after a block (`Request Blocked`, `EIE2###`, `ECE10##`), s; no source says how long one lasts. */
  blockPauseSeconds: number;
  /** NetFunnel service id of the ticket before an ID login: S2 (2026) sends `service_1`, the legacy sources `service_2`. */
  netFunnelSid: "service_1" | "service_2";
  /**
   * How cash-receipt sales are read: `download`, the text download S1 moved to in 2025-04 because the sales screen
   * encrypts its request body (420dfdf), or `pages`, the plain JSON list (S8), whose paging S1's test suggests repeated pages.
   */
  cashReceiptSalesList: "download" | "pages";
  /**
   * Ask the tax-invoice download beside the JSON pages (S1 lists invoices by one since 2025-04, 4881e05): the same
   * approval numbers and send dates, or the unit is malformed. Off, the JSON pages and a detail per invoice, as S3 reads them (live 2026-09).
   */
  invoiceDownloadCheck: boolean;
  /**
   * Which download: `xls`, the Excel workbook S1 PR #5 reads, whose two sheets carry every field the records need
   * but an amended invoice's reason and original approval number, so a detail is asked only for an amended invoice;
   * or `txt`, the text download S1's HEAD reads, a check only (`승인번호`, `전송일자`), beside a detail per invoice.
   * One unmerged PR shows the workbook: one it cannot read or that the portal refuses is a detail per invoice.
   */
  invoiceDownload: "xls" | "txt";
  /**
   * 간편인증 (OACX, docs/institutions/hometax.md "간편인증 (OACX)"): how `authen/request` carries name, phone and
   * birthday: `base64`, as every 2026 client does (K1, K4, K6), or `plain`, as a 2022 client did (K2).
   */
  simpleAuthFields: "base64" | "plain";
  /** The `txId` an `authen/result` poll sends: the `trans` txId (K1, K4 live in 2026, K8) or the request's `reqTxId` (K2, K5, K6, K7). */
  simpleAuthResultTxId: "trans" | "reqTxId";
  /**
   * How the gateway says the person denied in the app: no Hometax source shows it; the vendor's Mobile-ID product
   * answers 406 `OACX_CANCLED_SIGNED` (K10). Either code of an answer matching is a denial.
   */
  simpleAuthDenied: { resultCodes: readonly string[]; oacxCodes: readonly string[] };
  /** ms between two `authen/result` polls: Hometax's own page checks every 3 s (K11); K4 1 s, K7 2 s, K1 15 s. */
  simpleAuthPollMs: number;
  /** How long the app's request stands, s: 5 minutes (K5, K9, K11). */
  simpleAuthWindowSeconds: number;
  /** A provider id listed with `_prod` (`nh_prod`): sent as listed (K1, 2026 Hometax) or as `<provider>_<version>` (K5). */
  simpleAuthProdIds: "as-listed" | "versioned";
  /** The `simple_cert_<provider>` NetFunnel ticket before `authen/request` only, or before every poll too (K1). */
  simpleAuthNetFunnel: "request" | "every-call";
  /** Longest wait in a NetFunnel queue (201/202 answers) before RATE_LIMITED, s; `netfunnel.js` waits at most 5 s a turn (K18). */
  netFunnelWaitSeconds: number;
}

export const DEFAULT_OPTIONS: HometaxOptions = {
  integritySuffix: true,
  queryMonths: 3,
  serialForms: ["bytes", "prefixed"],
  requestIntervalMs: 1000,
  requestJitterMs: 500,
  throttleWaitSeconds: 61,
  throttleRetries: 2,
  blockPauseSeconds: 3600,
  netFunnelSid: "service_1",
  cashReceiptSalesList: "download",
  invoiceDownloadCheck: true,
  invoiceDownload: "xls",
  simpleAuthFields: "base64",
  simpleAuthResultTxId: "trans",
  simpleAuthDenied: { resultCodes: ["406"], oacxCodes: ["OACX_CANCLED_SIGNED"] },
  simpleAuthPollMs: 3000,
  simpleAuthWindowSeconds: 300,
  simpleAuthProdIds: "as-listed",
  simpleAuthNetFunnel: "request",
  netFunnelWaitSeconds: 120,
};
