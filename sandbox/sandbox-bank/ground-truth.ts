import { accountsOf, currentBalance, ledgerOf } from "./ledger";
import { kstIso } from "../../contracts/korean-time";

export interface DateRange {
  start: string;
  end: string;
}

/**
 * What the sandbox bank holds for a login, in exactly the record shapes the
 * service returns (`bank.accounts.cb.v1`, `bank.transactions.cb.v1`), so
 * tests can compare collected records with it field for field; `revision` is
 * the login's history after that many moves (POST /bank/sandbox/history).
 */
export function bankGroundTruth(loginId: string, range?: DateRange, revision = 0) {
  const accounts = accountsOf(loginId);
  return {
    accounts: accounts.map((a) => {
      const balance = currentBalance(a, undefined, revision);
      return {
        schema: "bank.accounts.cb.v1" as const,
        accountNumber: a.accountNumber,
        accountNumberFormatted: a.accountNumberFormatted,
        accountType: a.accountType,
        availableBalance: balance,
        balance,
        currencyCode: a.currencyCode,
        displayName: a.displayName,
        productName: a.productName,
      };
    }),
    transactions: accounts.flatMap((a) =>
      ledgerOf(a, undefined, revision)
        .filter((e) => !range || (e.date >= range.start && e.date <= range.end))
        .map((e) => ({
          schema: "bank.transactions.cb.v1" as const,
          accountNumber: a.accountNumber,
          accountNumberFormatted: a.accountNumberFormatted,
          accountType: a.accountType,
          amount: e.amount,
          balance: e.balance,
          currencyCode: a.currencyCode,
          description: e.description,
          identifier: e.identifier,
          transactionAt: kstIso(`${e.date}T${e.time}`),
        })),
    ),
  };
}
