import { fromDay, toDay } from "../dates";
import { kstDate } from "../../contracts/korean-time";
import { pick, seededRandom } from "../random";

export type AccountType = "CHECKING" | "INSTALLMENT_SAVINGS" | "FOREIGN";

export interface Account {
  accountNumber: string;
  accountNumberFormatted: string;
  accountType: AccountType;
  currencyCode: "KRW" | "USD";
  productName: string;
  displayName: string | null;
  openingBalance: number;
}

export interface LedgerEntry {
  identifier: string;
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM:SS, Korean time */
  time: string;
  description: string;
  /** Signed: deposits positive, withdrawals negative. */
  amount: number;
  balance: number;
  branch: string;
}

/** The first day of every ledger; any range after it can be asked for. */
export const LEDGER_ORIGIN = "2024-01-01";

const PRODUCTS: { type: AccountType; currency: "KRW" | "USD"; product: string; alias: string | null }[] = [
  { type: "CHECKING", currency: "KRW", product: "샌드박스 주거래 입출금통장", alias: "급여통장" },
  { type: "CHECKING", currency: "KRW", product: "샌드박스 기업자유예금", alias: "사업용" },
  { type: "FOREIGN", currency: "USD", product: "외화보통예금(USD)", alias: null },
];

const DEPOSITS = ["급여", "이자", "입금 홍길동", "환불 쿠팡", "매출대금 입금", "타행이체 입금"];
const WITHDRAWALS = ["카드대금", "관리비", "이체 김철수", "통신요금 KT", "보험료 자동이체", "CMS 출금", "현금인출 ATM"];
const BRANCHES = ["강남지점", "인터넷뱅킹", "모바일뱅킹", "여의도지점", "ATM"];

/** A business that banks elsewhere: it logs in and sees no account at all. */
export const NO_ACCOUNTS_LOGIN = "user_noaccounts";

/** Accounts of a login: deterministic from the login id. */
export function accountsOf(loginId: string): Account[] {
  if (loginId === NO_ACCOUNTS_LOGIN) return [];
  return PRODUCTS.map((p, index) => {
    const random = seededRandom(`${loginId}:account:${index}`);
    const digits = `${110 + index}${String(Math.floor(random() * 1e3)).padStart(3, "0")}${String(Math.floor(random() * 1e6)).padStart(6, "0")}`;
    return {
      accountNumber: digits,
      accountNumberFormatted: `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`,
      accountType: p.type,
      currencyCode: p.currency,
      productName: p.product,
      displayName: p.alias,
      openingBalance: p.currency === "KRW" ? Math.round(5_000_000 + random() * 45_000_000) : Math.round((2_000 + random() * 8_000) * 100) / 100,
    };
  });
}

function amountFor(random: () => number, account: Account, deposit: boolean): number {
  if (account.currencyCode === "USD") return Math.round((5 + random() * 900) * 100) / 100 * (deposit ? 1 : -1);
  const won = Math.round((1_000 + random() * 1_500_000) / 10) * 10;
  return deposit ? won : -won;
}

const cache = new Map<string, LedgerEntry[]>();

const clock = (second: number) => [Math.floor(second / 3600), Math.floor(second / 60) % 60, second % 60].map((n) => String(n).padStart(2, "0")).join(":");

/**
 * What each revision of a login's history changes (POST /bank/sandbox/history): revision r posts late, r + 1 days
 * before today, a transfer the bank had not shown, and takes back (a cancelled posting) the first entry on or after
 * 2r + 4 days before today. Balances after either move, as at a bank.
 */
function amendments(today: string, revision: number) {
  const late = new Map<string, number>();
  const cancelFrom: number[] = [];
  for (let r = 1; r <= revision; r++) {
    late.set(fromDay(toDay(today) - r - 1), r);
    cancelFrom.push(toDay(today) - 2 * r - 4);
  }
  return { late, cancelFrom };
}

/**
 * Every entry of an account from the origin up to today, with running balances, as the login's history stands at
 * `revision` (0: as first shown).
 */
export function ledgerOf(account: Account, today = kstDate(), revision = 0): LedgerEntry[] {
  const key = `${account.accountNumber}:${today}:${revision}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const { late, cancelFrom } = amendments(today, revision);
  const entries: LedgerEntry[] = [];
  let balance = account.openingBalance;
  for (let day = toDay(LEDGER_ORIGIN); day <= toDay(today); day++) {
    const date = fromDay(day);
    const random = seededRandom(`${account.accountNumber}:${date}`);
    const count = Math.floor(random() * 4);
    const seconds = Array.from({ length: count }, () => Math.floor(random() * 86_400)).sort((a, b) => a - b);
    seconds.forEach((second, seq) => {
      // Withdrawals never overdraw: a bank would refuse them.
      let deposit = random() < 0.45;
      let amount = amountFor(random, account, deposit);
      if (balance + amount < 0) {
        deposit = true;
        amount = -amount;
      }
      const description = pick(random, deposit ? DEPOSITS : WITHDRAWALS);
      const branch = pick(random, BRANCHES);
      // Drawn as before whether cancelled or not, so every other entry stays as it was.
      const cancelled = cancelFrom.findIndex((from) => day >= from);
      if (cancelled >= 0) return void cancelFrom.splice(cancelled, 1);
      balance = Math.round((balance + amount) * 100) / 100;
      entries.push({ identifier: `${account.accountNumber}-${date.replace(/-/g, "")}-${String(seq + 1).padStart(2, "0")}`, date, time: clock(second), description, amount, balance, branch });
    });
    const r = late.get(date);
    if (r !== undefined) {
      const amount = account.currencyCode === "USD" ? 10 * r : 10_000 * r;
      balance = Math.round((balance + amount) * 100) / 100;
      entries.push({ identifier: `${account.accountNumber}-${date.replace(/-/g, "")}-L${r}`, date, time: "23:59:59", description: "타행이체 입금(지연반영)", amount, balance, branch: "인터넷뱅킹" });
    }
  }
  cache.set(key, entries);
  return entries;
}

export function currentBalance(account: Account, today = kstDate(), revision = 0): number {
  return ledgerOf(account, today, revision).at(-1)?.balance ?? account.openingBalance;
}
