import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { csvColumns, csvRecordRows } from "../worker/results/csv-format";
import { BankTransactionRecord } from "../collectors/records/bank";

const COLUMNS = csvColumns(BankTransactionRecord);

const DESCRIPTIONS = ["급여", "카드대금", "이체", "관리비", "=수식처럼 보이는 적요", "쉼표, 가 있는 적요", "따옴표 \"포함\""];

async function write(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, "drain");
}

async function finish(out: WriteStream): Promise<void> {
  out.end();
  await once(out, "finish");
}

/**
 * Writes `count` valid bank transaction records as the pipeline stores a
 * unit: NDJSON and CSV rows. Returns the CSV byte count.
 */
export async function writeSyntheticUnit(files: { ndjson: string; csv: string }, unitIndex: number, count: number): Promise<number> {
  const ndjson = createWriteStream(files.ndjson);
  const csv = createWriteStream(files.csv);
  let bytes = 0;
  let balance = 10_000_000;
  for (let i = 0; i < count; i++) {
    const amount = ((i * 7919 + unitIndex * 104_729) % 2_000_000) - 1_000_000;
    balance += amount;
    const second = i % 86_400;
    const record = {
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
    const row = csvRecordRows(COLUMNS, [record]);
    bytes += Buffer.byteLength(row);
    await write(ndjson, `${JSON.stringify(record)}\n`);
    await write(csv, row);
  }
  await Promise.all([finish(ndjson), finish(csv)]);
  return bytes;
}
