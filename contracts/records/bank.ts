import { z } from "@hono/zod-openapi";
import { discriminator, dateTime, nnum, nstr, num, oneOf, str } from "./fields";

export const ACCOUNT_TYPES = [
  "CHECKING",
  "INSTALLMENT_SAVINGS",
  "TRUST",
  "FUND",
  "FOREIGN",
  "LOAN",
  "INSURANCE",
  "PENSION",
] as const;

export const BankAccountRecord = z
  .object({
    schema: discriminator("bank.accounts.cb.v1"),
    accountNumber: str("계좌번호(오픈뱅킹: 핀테크이용번호)"),
    accountNumberFormatted: nstr("계좌번호(표시형식)"),
    accountType: oneOf(ACCOUNT_TYPES, "계좌유형"),
    availableBalance: nnum("출금가능금액"),
    balance: nnum("잔액"),
    currencyCode: str("통화"),
    displayName: nstr("계좌별칭"),
    productName: nstr("상품명"),
  })
  .openapi("BankAccountRecord");

export const BankTransactionRecord = z
  .object({
    schema: discriminator("bank.transactions.cb.v1"),
    accountNumber: str("계좌번호(오픈뱅킹: 핀테크이용번호)"),
    accountNumberFormatted: nstr("계좌번호(표시형식)"),
    accountType: oneOf(ACCOUNT_TYPES, "계좌유형"),
    amount: num("거래금액"),
    balance: nnum("거래후잔액"),
    currencyCode: str("통화"),
    description: nstr("적요"),
    identifier: str("거래식별자"),
    transactionAt: dateTime("거래일시"),
  })
  .openapi("BankTransactionRecord");
