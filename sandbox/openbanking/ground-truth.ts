import { fromDay, toDay } from "../dates";
import { kstDate } from "../../contracts/korean-time";
import { seededRandom } from "../random";

/**
 * What the Open Banking replica holds (docs/institutions/openbanking.md §9): its own 이용기관 (the client a test
 * registers consents with), test users with accounts at several banks, and each account's ledger from LEDGER_START up to
 * today. Everything is derived from fixed seeds, each day's rows from that day's own, so a day shows the same rows
 * whichever later day it is viewed on, and tests compare the adapter's records with these values.
 */

/** The replica's registered 이용기관: its keys are the sandbox's own, never a real 이용기관's. */
export const REPLICA_CLIENT = { clientId: "sandbox-openbanking-client-0001", clientSecret: "sandbox-openbanking-secret-0001", clientUseCode: "M202600001" } as const;
/** A second registered 이용기관, a partner that brings its own keys (docs/institutions/openbanking.md §1.5). */
export const REPLICA_PARTNER_CLIENT = { clientId: "sandbox-openbanking-partner-0002", clientSecret: "sandbox-openbanking-partner-secret-0002", clientUseCode: "M202600002" } as const;
/** Every 이용기관 the replica knows: each consent, code and token belongs to the one that asked for it. */
export const REPLICA_CLIENTS: readonly { clientId: string; clientSecret: string; clientUseCode: string }[] = [REPLICA_CLIENT, REPLICA_PARTNER_CLIENT];

/** The first day of every ledger; each runs up to today (Korean time), as the sandbox bank's and card issuer's do. */
export const LEDGER_START = "2025-01-01";

/**
 * What an account does besides answering, one failure each (the failures docs §7 maps): a test reaches one by
 * consenting to that account of the `obfail` user.
 */
export type AccountBehaviour = "closed" | "maintenance" | "quota" | "repeat-page" | "consent-expired" | "bank-unknown" | "no-transactions";

export interface ReplicaAccount {
  fintechUseNum: string;
  bankCodeStd: string;
  bankName: string;
  /** The full number: never on the wire for 센터인증, only masked. */
  accountNum: string;
  accountNumMasked: string;
  accountAlias: string;
  /** KFTC's account_type: 1 수시입출금, 2 예적금, 6 수익증권. */
  accountType: "1" | "2" | "6";
  productName: string;
  accountIssueDate: string;
  behaviour?: AccountBehaviour;
}

export interface ReplicaUser {
  /** What the replica's consent page asks for (the real page's authentication is undocumented). */
  loginId: string;
  password: string;
  userSeqNo: string;
  userName: string;
  userCi: string;
  accounts: ReplicaAccount[];
}

export interface LedgerRow {
  tran_date: string;
  tran_time: string;
  inout_type: "입금" | "출금";
  tran_type: string;
  print_content: string;
  tran_amt: number;
  after_balance_amt: number;
  branch_name: string;
}

const BANKS: Record<string, string> = { "097": "오픈은행", "088": "신한은행", "090": "카카오뱅크", "081": "하나은행", "092": "토스뱅크", "003": "IBK기업은행" };
const PRODUCTS: Record<ReplicaAccount["accountType"], string> = { "1": "자유입출금통장", "2": "정기적금", "6": "수익증권" };

function account(userIndex: number, index: number, bankCodeStd: string, accountType: ReplicaAccount["accountType"], alias: string, behaviour?: AccountBehaviour): ReplicaAccount {
  const serial = `${String(userIndex).padStart(3, "0")}${String(index).padStart(3, "0")}`;
  const accountNum = `${bankCodeStd}${serial}${String(4000 + userIndex * 10 + index).padStart(6, "0")}`;
  return {
    // 24 digits; every observed one starts 1 + the 이용기관 code's digits (O4, O10, O20): the replica does the same.
    fintechUseNum: `1${REPLICA_CLIENT.clientUseCode.slice(1)}${String(userIndex * 1000 + index).padStart(14, "0")}`,
    bankCodeStd,
    bankName: BANKS[bankCodeStd]!,
    accountNum,
    accountNumMasked: `${accountNum.slice(0, accountNum.length - 3)}***`,
    accountAlias: alias,
    accountType,
    productName: PRODUCTS[accountType],
    accountIssueDate: "20230115",
    ...(behaviour ? { behaviour } : {}),
  };
}

function user(index: number, loginId: string, userName: string, accounts: ReplicaAccount[]): ReplicaUser {
  return {
    loginId,
    password: "pass_good",
    userSeqNo: `11000${String(index).padStart(5, "0")}`,
    userName,
    userCi: Buffer.from(`sandbox-openbanking-ci-${loginId}`.padEnd(66, "#")).toString("base64"),
    accounts,
  };
}

const FAILURES: AccountBehaviour[] = ["closed", "maintenance", "quota", "repeat-page", "consent-expired", "bank-unknown", "no-transactions"];

export const OPENBANKING_USERS: readonly ReplicaUser[] = [
  user(1, "obuser1", "김오픈", [account(1, 1, "097", "1", "생활비통장"), account(1, 2, "088", "1", "월급통장"), account(1, 3, "090", "2", "비상금적금")]),
  user(2, "obuser2", "이뱅킹", [account(2, 1, "081", "1", "주거래"), account(2, 2, "092", "1", "모임통장"), account(2, 3, "003", "6", "펀드")]),
  user(3, "obfail", "박실패", FAILURES.map((behaviour, i) => account(3, i + 1, i % 2 ? "088" : "097", "1", `실패-${behaviour}`, behaviour))),
];

export function userByLogin(loginId: string): ReplicaUser | undefined {
  return OPENBANKING_USERS.find((u) => u.loginId === loginId);
}

export function userBySeqNo(userSeqNo: string): ReplicaUser | undefined {
  return OPENBANKING_USERS.find((u) => u.userSeqNo === userSeqNo);
}

export function accountByFintech(fintechUseNum: string): { user: ReplicaUser; account: ReplicaAccount } | undefined {
  for (const u of OPENBANKING_USERS) {
    const a = u.accounts.find((x) => x.fintechUseNum === fintechUseNum);
    if (a) return { user: u, account: a };
  }
  return undefined;
}

export function accountOf(loginId: string, behaviour: AccountBehaviour): ReplicaAccount {
  return userByLogin(loginId)!.accounts.find((a) => a.behaviour === behaviour)!;
}

const DEPOSITS = [["타행환", "용돈"], ["대체", "환불"], ["현금", "ATM입금"], ["타행환", "중고거래"], ["대체", "이자"]] as const;
const WITHDRAWALS = [["대체", "카드대금"], ["F/B출금", "관리비"], ["현금", "ATM출금"], ["타행환", "월세"], ["대체", "통신요금"], ["타행환", "경조사비"], ["대체", "보험료"]] as const;
const BRANCHES = ["본점", "강남지점", "여의도지점", "모바일"];

const ledgers = new Map<string, LedgerRow[]>();

/**
 * Every transaction of an account, oldest first, from LEDGER_START up to `today`: an ordinary (수시입출금) account has
 * one or two a day besides its payday, so every month of it holds more than a page (25 rows) of KFTC's list.
 */
export function ledgerOf(fintechUseNum: string, today = kstDate()): LedgerRow[] {
  const key = `${fintechUseNum}:${today}`;
  const cached = ledgers.get(key);
  if (cached) return cached;
  const found = accountByFintech(fintechUseNum);
  const rows: LedgerRow[] = [];
  if (found && found.account.behaviour !== "no-transactions") {
    let balance = 500_000 + Math.floor(seededRandom(`openbanking-ledger-${fintechUseNum}`)() * 4_500) * 1000;
    const savings = found.account.accountType !== "1";
    for (let n = toDay(LEDGER_START); n <= toDay(today); n++) {
      const day = new Date(`${fromDay(n)}T00:00:00Z`);
      const date = fromDay(n).replace(/-/g, "");
      // The day's own seed: its rows never depend on how far the ledger runs.
      const random = seededRandom(`openbanking-ledger-${fintechUseNum}-${date}`);
      const count = savings ? (day.getUTCDate() === 10 ? 1 : random() < 0.1 ? 1 : 0) : 1 + Math.floor(random() * 2);
      const times = Array.from({ length: count + (day.getUTCDate() === 25 && !savings ? 1 : 0) }, () => Math.floor(random() * 86_400)).sort((a, b) => a - b);
      times.forEach((seconds, i) => {
        const time = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60].map((n) => String(n).padStart(2, "0")).join("");
        const payday = day.getUTCDate() === 25 && !savings && i === times.length - 1;
        const deposit = payday || savings || random() < 0.35 || balance < 100_000;
        const [tranType, print] = payday ? ["급여", "급여"] : savings ? ["대체", "정기납입"] : deposit ? DEPOSITS[Math.floor(random() * DEPOSITS.length)]! : WITHDRAWALS[Math.floor(random() * WITHDRAWALS.length)]!;
        const size = payday ? 3_200_000 : savings ? 300_000 : (1 + Math.floor(random() * 300)) * 1000;
        const amount = deposit ? size : Math.min(size, balance);
        if (amount <= 0) return;
        balance += deposit ? amount : -amount;
        rows.push({ tran_date: date, tran_time: time, inout_type: deposit ? "입금" : "출금", tran_type: tranType, print_content: print, tran_amt: amount, after_balance_amt: balance, branch_name: BRANCHES[Math.floor(random() * BRANCHES.length)]! });
      });
    }
  }
  ledgers.set(key, rows);
  return rows;
}

/** The account's balance on `today`: after its last transaction up to then. */
export function balanceOf(fintechUseNum: string, today = kstDate()): { balance: number; available: number } {
  const rows = ledgerOf(fintechUseNum, today);
  const balance = rows.length ? rows[rows.length - 1]!.after_balance_amt : 0;
  const found = accountByFintech(fintechUseNum);
  return { balance, available: found?.account.accountType === "1" ? balance : 0 };
}

/** The ledger rows of a period (YYYY-MM-DD, inclusive), oldest first, as shown on `today`. */
export function transactionsBetween(fintechUseNum: string, start: string, end: string, today = kstDate()): LedgerRow[] {
  const from = start.replace(/-/g, "");
  const to = end.replace(/-/g, "");
  return ledgerOf(fintechUseNum, today).filter((r) => r.tran_date >= from && r.tran_date <= to);
}
