import { describe, expect, it } from "vitest";
import { bankGroundTruth } from "../../sandbox/bank/ground-truth";
import { accountsOf, ledgerOf } from "../../sandbox/bank/ledger";
import { BankAccountRecord, BankTransactionRecord } from "../../collectors/records/bank";

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
});
