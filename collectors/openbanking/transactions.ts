import type { RawRecord, TaskUnit } from "../adapter";
import { malformed } from "../kit/failure-text";
import { accountOfUnit, accountTypeOf, CURRENCY } from "./accounts";
import { failureOf } from "./failures";
import { PATHS } from "./hosts";
import { call, checked, type OpenBankingSession } from "./session";
import { amount, field, type Json } from "./wire";
import { kstIso, kstStamp } from "../../contracts/korean-time";

/** Rows a `transaction_list` page holds at most (O1/O2 주1, O5, O14). */
export const PAGE_ROWS = 25;
const DAY_MS = 86_400_000;

const compact = (iso: string) => iso.replace(/-/g, "");
const dayOf = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** A period cut into windows of at most `days` days, in order, touching and not overlapping. */
export function windowsOf(start: string, end: string, days: number): { from: string; to: string }[] {
  const first = dayOf(start);
  const last = dayOf(end);
  if (!Number.isInteger(days) || days < 1) throw new Error("maxPeriodDays is a whole number of days, at least 1");
  if (!Number.isFinite(first) || !Number.isFinite(last) || last < first) throw malformed(`period ${start}..${end} is not a period`);
  const out: { from: string; to: string }[] = [];
  for (let day = first; day <= last; day += days) out.push({ from: isoOf(day), to: isoOf(Math.min(last, day + days - 1)) });
  return out;
}

/** The trace value of an answer: the spec's `befor_inquiry_trace_info`, or the KFTC sample app's `befor_inquirty_trace_info`. */
const traceOf = (answer: Json): string => {
  const value = answer.befor_inquiry_trace_info ?? answer.befor_inquirty_trace_info;
  return typeof value === "string" ? value : "";
};

/** FNV-1a twice over the text: a 16-hex fingerprint, the same in every runtime. */
function fingerprint(text: string): string {
  const run = (seed: number) => {
    let h = seed >>> 0;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return (h >>> 0).toString(16).padStart(8, "0");
  };
  return run(0x811c9dc5) + run(0x01000193 ^ 0x5bd1e995);
}

interface WireRow {
  tran_date: string;
  tran_time: string;
  inout_type: string;
  tran_amt: string;
  after_balance_amt: string;
  print_content: string | null;
}

function rowOf(item: unknown, window: { from: string; to: string }, where: string): WireRow {
  if (!item || typeof item !== "object") throw malformed(`${where}: res_list item is not an object`);
  const row = item as Json;
  const date = field(row, "tran_date", where);
  const time = field(row, "tran_time", where);
  if (!/^\d{8}$/.test(date) || !/^\d{6}$/.test(time)) throw malformed(`${where}: tran_date/tran_time unreadable`);
  if (date < compact(window.from) || date > compact(window.to)) throw malformed(`${where}: a row of ${date} outside ${window.from}..${window.to}`);
  // The table and KFTC's app say print_content; the page's own sample writes printed_content (O1/O2, O5).
  const print = row.print_content ?? row.printed_content;
  return {
    tran_date: date,
    tran_time: time,
    inout_type: field(row, "inout_type", where).trim(),
    tran_amt: String(amount(row, "tran_amt", where)),
    after_balance_amt: String(amount(row, "after_balance_amt", where)),
    print_content: typeof print === "string" && print.trim() ? print.trim() : null,
  };
}

/** Deposits are positive, withdrawals negative (`inout_type` 입금 / 출금; 지급 in one DTO). */
function signed(row: WireRow, where: string): number {
  const value = Number(row.tran_amt);
  if (row.inout_type === "입금") return value;
  if (row.inout_type === "출금" || row.inout_type === "지급") return -value;
  throw malformed(`${where}: inout_type ${row.inout_type} is neither 입금 nor 출금`);
}

/**
 * Every row of one window, page by page: the first request without `befor_inquiry_trace_info`, each next one with
 * the previous answer's value and a new `bank_tran_id` (O14, O5). A page that comes back again (a trace value or
 * rows already seen), a count that disagrees with its rows, or more pages than `maxPagesPerWindow` is malformed:
 * never duplicates, never a silent gap.
 */
async function windowRows(session: OpenBankingSession, fintechUseNum: string, window: { from: string; to: string }): Promise<WireRow[]> {
  const rows: WireRow[] = [];
  const traces = new Set<string>();
  const pages = new Set<string>();
  let trace: string | null = null;
  for (let page = 1; ; page++) {
    const where = `account/transaction_list/fin_num ${window.from}..${window.to} page ${page}`;
    if (page > session.options.maxPagesPerWindow) throw malformed(`${where}: more pages than ${session.options.maxPagesPerWindow}`);
    const params: Record<string, string> = {
      bank_tran_id: session.deps.ids.next(session.credential.clientUseCode),
      fintech_use_num: fintechUseNum,
      inquiry_type: "A",
      inquiry_base: "D",
      from_date: compact(window.from),
      to_date: compact(window.to),
      sort_order: "A",
      tran_dtime: kstStamp(session.deps.now()),
    };
    if (trace !== null) params.befor_inquiry_trace_info = trace;
    const answer = await call(session, PATHS.transactions, params, where);
    if (answer.rsp_code === "A0018" && session.options.a0018IsEmpty) {
      if (page > 1) throw malformed(`${where}: 거래내역 없음 after a page that promised more`);
      return rows;
    }
    if (answer.rsp_code !== "A0000") throw failureOf(answer, where, session.options.quotaRetryAfterSeconds);
    checked(answer, where, session.options);
    if (answer.fintech_use_num !== undefined && answer.fintech_use_num !== fintechUseNum) throw malformed(`${where}: answer for another fintech_use_num`);
    const list = answer.res_list ?? [];
    if (!Array.isArray(list)) throw malformed(`${where}: res_list is not a list`);
    const count = String(answer.page_record_cnt ?? "").trim();
    if (count !== String(list.length)) throw malformed(`${where}: page_record_cnt ${count} but ${list.length} rows`);
    if (list.length > PAGE_ROWS) throw malformed(`${where}: ${list.length} rows, over ${PAGE_ROWS}`);
    const pageRows = list.map((item) => rowOf(item, window, where));
    const next = answer.next_page_yn;
    if (next !== "Y" && next !== "N") throw malformed(`${where}: next_page_yn ${String(next)}`);
    if (pageRows.length > 0) {
      const print = fingerprint(JSON.stringify(pageRows));
      if (pages.has(print)) throw malformed(`${where}: the same page came back twice`);
      pages.add(print);
    }
    rows.push(...pageRows);
    if (next === "N") return rows;
    const nextTrace = traceOf(answer);
    if (!nextTrace) throw malformed(`${where}: next_page_yn Y without befor_inquiry_trace_info`);
    if (traces.has(nextTrace)) throw malformed(`${where}: befor_inquiry_trace_info repeats`);
    if (pageRows.length === 0) throw malformed(`${where}: an empty page that promises more`);
    traces.add(nextTrace);
    trace = nextTrace;
  }
}

/**
 * `bank.transactions.cb.v1` of one account over the unit's period, in windows of `maxPeriodDays`. Open Banking
 * gives no transaction id: `identifier` is the row's date and time, a fingerprint of the account and the row, and
 * the row's ordinal among identical rows of that day (docs/institutions/openbanking.md §5).
 */
export async function transactionRecords(session: OpenBankingSession, unit: TaskUnit): Promise<RawRecord[]> {
  const account = accountOfUnit(session, unit);
  if (!unit.segment) throw malformed(`${unit.schema} needs a period`);
  const accountType = accountTypeOf(account.accountType, "account/list");
  const records: RawRecord[] = [];
  for (const window of windowsOf(unit.segment.start, unit.segment.end, session.options.maxPeriodDays)) {
    const seen = new Map<string, number>();
    for (const row of await windowRows(session, account.fintechUseNum, window)) {
      const where = `transaction ${row.tran_date}`;
      const key = fingerprint(JSON.stringify([account.fintechUseNum, row]));
      const ordinal = (seen.get(key) ?? 0) + 1;
      seen.set(key, ordinal);
      const d = row.tran_date;
      const t = row.tran_time;
      records.push({
        schema: unit.schema,
        accountNumber: account.fintechUseNum,
        accountNumberFormatted: account.accountNumMasked,
        accountType,
        amount: signed(row, where),
        balance: Number(row.after_balance_amt),
        currencyCode: CURRENCY,
        description: row.print_content,
        identifier: `${d}${t}-${key}-${ordinal}`,
        transactionAt: kstIso(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}`),
      });
    }
  }
  return records;
}
