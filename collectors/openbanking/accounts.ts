import { ProviderFailure, type RawRecord, type Target, type TaskUnit } from "../adapter";
import { malformed } from "../kit/failure-text";
import type { ACCOUNT_TYPES } from "../../contracts/records/bank";
import { PATHS } from "./hosts";
import type { ConsentedAccount } from "./oauth";
import { call, checked, type OpenBankingSession } from "./session";
import { amount, optionalField } from "./wire";
import { kstStamp } from "../../contracts/korean-time";

type AccountType = (typeof ACCOUNT_TYPES)[number];

/** KFTC's `account_type` (O2 잔액조회 table; `T` from O14) in the record's terms (docs/institutions/openbanking.md §5). */
const ACCOUNT_TYPE: Readonly<Record<string, AccountType>> = { "1": "CHECKING", "2": "INSTALLMENT_SAVINGS", "6": "FUND", T: "FUND" };

export function accountTypeOf(code: string | null, where: string): AccountType {
  const type = code === null ? undefined : ACCOUNT_TYPE[code];
  if (!type) throw malformed(`${where}: account_type ${code ?? "(none)"} is not one the adapter knows`);
  return type;
}

/** Amounts in Open Banking answers are won: no answer names a currency (docs §5, "currencyCode"). */
export const CURRENCY = "KRW";

/** One target per account the person consented to for inquiry (`inquiry_agree_yn` Y), keyed by `fintech_use_num`. */
export function targetsOf(session: OpenBankingSession): Target[] {
  return [...session.accounts.values()].filter((a) => a.inquiryAgreed).map((a) => {
    const attributes: Record<string, string> = { bankCodeStd: a.bankCodeStd, bankName: a.bankName, accountNumberFormatted: a.accountNumMasked };
    if (a.accountType) attributes.kftcAccountType = a.accountType;
    if (a.accountAlias) attributes.displayName = a.accountAlias;
    if (a.accountState) attributes.accountState = a.accountState;
    return { id: a.fintechUseNum, attributes };
  });
}

/** The account a unit names, as the consent lists it; one it no longer lists is not this consent's to read. */
export function accountOfUnit(session: OpenBankingSession, unit: TaskUnit): ConsentedAccount {
  if (!unit.target) throw new ProviderFailure("PROVIDER_ERROR", `${unit.schema} needs an account`);
  const account = session.accounts.get(unit.target.id);
  if (!account || !account.inquiryAgreed) throw new ProviderFailure("INVALID_ACCOUNT_FOR_SERVICE", "the consent does not cover this fintech_use_num");
  return account;
}

/**
 * `bank.accounts.cb.v1`: each consented account with `balance/fin_num`'s balance (O2, O5). The catalog plans the
 * account list as one unit without a target, so that unit reads every account the consent covers, one at a time.
 */
export async function accountRecords(session: OpenBankingSession, unit: TaskUnit): Promise<RawRecord[]> {
  if (unit.target) return accountRecord(session, unit, accountOfUnit(session, unit));
  const records: RawRecord[] = [];
  for (const target of targetsOf(session)) records.push(...(await accountRecord(session, unit, accountOfUnit(session, { ...unit, target }))));
  return records;
}

async function accountRecord(session: OpenBankingSession, unit: TaskUnit, account: ConsentedAccount): Promise<RawRecord[]> {
  const where = "account/balance/fin_num";
  const answer = checked(
    await call(session, PATHS.balance, { bank_tran_id: session.deps.ids.next(session.credential.clientUseCode), fintech_use_num: account.fintechUseNum, tran_dtime: kstStamp(session.deps.now()) }, where),
    where,
    session.options,
  );
  if (answer.fintech_use_num !== undefined && answer.fintech_use_num !== account.fintechUseNum) throw malformed(`${where}: answer for another fintech_use_num`);
  return [
    {
      schema: unit.schema,
      accountNumber: account.fintechUseNum,
      accountNumberFormatted: account.accountNumMasked,
      accountType: accountTypeOf(optionalField(answer, "account_type") ?? account.accountType, where),
      availableBalance: optionalField(answer, "available_amt") === null ? null : amount(answer, "available_amt", where),
      balance: amount(answer, "balance_amt", where),
      currencyCode: CURRENCY,
      displayName: account.accountAlias,
      productName: optionalField(answer, "product_name"),
    },
  ];
}
