import { describe, expect, it } from "vitest";
import { bankGroundTruth } from "../../../sandbox/sandbox-bank/ground-truth";
import { accountsOf, ledgerOf } from "../../../sandbox/sandbox-bank/ledger";
import { BankAccountRecord, BankTransactionRecord } from "../../../contracts/records/bank";
import { fromDay, toDay } from "../../../sandbox/dates";

describe("sandbox bank ledger", () => {
  it("is deterministic per login and different across logins", () => {
    expect(bankGroundTruth("user_good")).toEqual(bankGroundTruth("user_good"));
    expect(accountsOf("user_good")[0]!.accountNumber).not.toBe(accountsOf("someone_else")[0]!.accountNumber);
  });

  it("has balances that add up from the opening balance and never go negative", () => {
    for (const account of accountsOf("user_good")) {
      let balance = account.openingBalance;
      for (const entry of ledgerOf(account)) {
        balance = Math.round((balance + entry.amount) * 100) / 100;
        expect(entry.balance).toBe(balance);
        expect(entry.balance).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("produces records that pass the service's record schemas, with unique identifiers", () => {
    const truth = bankGroundTruth("user_good", { start: "2025-01-01", end: "2025-12-31" });
    expect(truth.accounts).toHaveLength(3);
    for (const record of truth.accounts) expect(BankAccountRecord.safeParse(record).success).toBe(true);
    for (const record of truth.transactions) expect(BankTransactionRecord.safeParse(record).success).toBe(true);
    expect(new Set(truth.transactions.map((t) => t.identifier)).size).toBe(truth.transactions.length);
    expect(truth.transactions.length).toBeGreaterThan(1000);
    expect(truth.transactions.every((t) => t.transactionAt >= "2025-01-01" && t.transactionAt < "2026-01-01")).toBe(true);
  });

  it("moves a login's history on per revision: a late posting, a cancelled one, later balances after them, the past before untouched", () => {
    const today = "2026-06-30";
    const day = (daysBefore: number) => fromDay(toDay(today) - daysBefore);
    for (const account of accountsOf("user_good")) {
      const [before, after] = [ledgerOf(account, today, 0), ledgerOf(account, today, 1)];
      const ids = (entries: typeof before) => new Set(entries.map((e) => e.identifier));
      const added = after.filter((e) => !ids(before).has(e.identifier));
      const removed = before.filter((e) => !ids(after).has(e.identifier));
      expect(added).toMatchObject([{ identifier: `${account.accountNumber}-${day(2).replace(/-/g, "")}-L1`, date: day(2) }]);
      expect(removed).toHaveLength(1);
      expect(removed[0]!.date >= day(6)).toBe(true);
      const untouched = (e: (typeof before)[number]) => e.date < removed[0]!.date;
      expect(after.filter(untouched)).toEqual(before.filter(untouched));
      let balance = account.openingBalance;
      for (const entry of after) expect(entry.balance).toBe((balance = Math.round((balance + entry.amount) * 100) / 100));
    }
  });
});
