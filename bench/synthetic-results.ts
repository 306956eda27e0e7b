import { createWriteStream } from "node:fs";
import { once } from "node:events";

const DESCRIPTIONS = ["급여", "카드대금", "이체", "관리비", "=수식처럼 보이는 적요", "쉼표, 가 있는 적요", "따옴표 \"포함\""];

/** Writes `count` valid bank transaction records as NDJSON, the format the pipeline stores per unit. */
export async function writeSyntheticUnit(file: string, unitIndex: number, count: number): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  let balance = 10_000_000;
  for (let i = 0; i < count; i++) {
    const amount = ((i * 7919 + unitIndex * 104_729) % 2_000_000) - 1_000_000;
    balance += amount;
    const second = i % 86_400;
    const line = `${JSON.stringify({
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
    })}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return bytes;
}
