import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { csvColumns, csvRecordRows } from "../worker/domain/results/csv-format";
import { BankTransactionRecord } from "../contracts/records/bank";
import { arrayItemLine } from "../worker/domain/results/array-item-lines";

const COLUMNS = csvColumns(BankTransactionRecord);

const DESCRIPTIONS = ["급여", "카드대금", "이체", "관리비", "=수식처럼 보이는 적요", "쉼표, 가 있는 적요", "따옴표 \"포함\""];

/** `count` valid bank transaction records of a unit, the same ones each time it is called. */
function* syntheticRecords(unitIndex: number, count: number): Generator<Record<string, unknown>> {
  let balance = 10_000_000;
  for (let i = 0; i < count; i++) {
    const amount = ((i * 7919 + unitIndex * 104_729) % 2_000_000) - 1_000_000;
    balance += amount;
    const second = i % 86_400;
    yield {
      schema: "bank.transactions.cb.v1",
      accountNumber: "1002003004005",
      accountNumberFormatted: "100-200-3004005",
      accountType: "CHECKING",
      amount,
      balance,
      currencyCode: "KRW",
      description: DESCRIPTIONS[i % DESCRIPTIONS.length],
      identifier: `u${unitIndex}-${i}`,
      transactionAt: `2026-01-01T${String(Math.floor(second / 3600)).padStart(2, "0")}:${String(Math.floor(second / 60) % 60).padStart(2, "0")}:${String(second % 60).padStart(2, "0")}+09:00`,
    };
  }
}

/** Writes each record as `format` renders it, waiting out back-pressure; returns the UTF-8 bytes written. */
async function writeAll(out: WriteStream, records: Iterable<Record<string, unknown>>, format: (record: Record<string, unknown>) => string): Promise<number> {
  let bytes = 0;
  for (const record of records) {
    const text = format(record);
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, "drain");
  }
  return bytes;
}

/**
 * Writes a unit's object as the pipeline stores it: the records' JSON
 * lines, then the same records as CSV rows (generated again rather than
 * held, so memory stays flat). Returns where the CSV rows start and their
 * byte count.
 */
export async function writeSyntheticUnit(file: string, unitIndex: number, count: number): Promise<{ csvOffset: number; csvBytes: number }> {
  const out = createWriteStream(file);
  const csvOffset = await writeAll(out, syntheticRecords(unitIndex, count), arrayItemLine);
  const csvBytes = await writeAll(out, syntheticRecords(unitIndex, count), (r) => csvRecordRows(COLUMNS, [r]));
  out.end();
  await once(out, "finish");
  return { csvOffset, csvBytes };
}
