import { hashSeed, seededRandom } from "../random";

export type CardKind = "CREDIT" | "CHECK";
export type CardState = "ACTIVE" | "SUSPENDED" | "EXPIRED";

export interface Card {
  /** The site's own key for the card: what its forms send, never the number (as real issuers do). */
  key: string;
  /** Its place in the issuer's list, from 1: part of its approvals' transaction numbers. */
  serial: number;
  cardNumberMasked: string;
  cardName: string;
  kind: CardKind;
  state: CardState;
  /** Whose card it is inside the business, as the issuer lists it. */
  holder: string;
  /** Accepted abroad (VISA/Master) or domestic only. */
  overseas: boolean;
  /** "MM/YY" as printed on the card. */
  validThru: string;
  /** First and last day the card can be used (suspension or expiry ends it). */
  usableFrom: string;
  usableUntil: string | null;
  /** Average approval attempts on a working day. */
  dailyUse: number;
}

/** The first day of every approval history; any range after it can be asked for. */
export const APPROVALS_ORIGIN = "2024-01-01";

interface CardTemplate {
  name: string;
  kind: CardKind;
  bin: string;
  overseas: boolean;
  holder: string;
  dailyUse: number;
  state: CardState;
  usableFrom: string;
  /** For a suspended card, the window its suspension day falls in; an expired card ends with its validity. */
  suspendedBetween?: [string, string];
  validThru: string;
}

// One business's corporate cards: a reissued card replaces an expired one, as issuers do.
const TEMPLATES: CardTemplate[] = [
  { name: "샌드박스 법인 플래티늄카드", kind: "CREDIT", bin: "4579", overseas: true, holder: "대표이사", dailyUse: 1.3, state: "ACTIVE", usableFrom: "2023-03-02", validThru: "03/28" },
  { name: "샌드박스 법인 체크카드", kind: "CHECK", bin: "9420", overseas: false, holder: "공용(총무팀)", dailyUse: 1.1, state: "ACTIVE", usableFrom: "2023-05-15", validThru: "05/28" },
  { name: "샌드박스 법인 비즈니스카드", kind: "CREDIT", bin: "5310", overseas: true, holder: "영업팀", dailyUse: 0.9, state: "SUSPENDED", usableFrom: "2023-08-01", suspendedBetween: ["2025-03-01", "2025-10-31"], validThru: "08/28" },
  { name: "샌드박스 법인 비즈니스카드", kind: "CREDIT", bin: "5310", overseas: true, holder: "개발팀", dailyUse: 0.8, state: "EXPIRED", usableFrom: "2020-07-01", validThru: "06/25" },
  { name: "샌드박스 법인 비즈니스카드", kind: "CREDIT", bin: "5310", overseas: true, holder: "개발팀", dailyUse: 0.8, state: "ACTIVE", usableFrom: "2025-07-01", validThru: "06/30" },
];

const DAY_MS = 86_400_000;

/** The last day of a "MM/YY" validity. */
function lastValidDay(validThru: string): string {
  const [month, year] = validThru.split("/").map(Number) as [number, number];
  return new Date(Date.UTC(2000 + year, month, 0)).toISOString().slice(0, 10);
}

/** Corporate cards of a login: deterministic from the login id. */
export function cardsOf(loginId: string): Card[] {
  const numbers = new Set<string>();
  return TEMPLATES.map((t, index) => {
    const random = seededRandom(`${loginId}:card:${index}`);
    let last4: string;
    do last4 = String(Math.floor(random() * 1e4)).padStart(4, "0");
    while (numbers.has(last4));
    numbers.add(last4);
    const middle = String(10 + Math.floor(random() * 90));
    let usableUntil: string | null = null;
    if (t.state === "EXPIRED") usableUntil = lastValidDay(t.validThru);
    if (t.suspendedBetween) {
      const [from, to] = t.suspendedBetween.map((d) => Date.parse(`${d}T00:00:00Z`)) as [number, number];
      usableUntil = new Date(from + Math.floor(random() * ((to - from) / DAY_MS)) * DAY_MS).toISOString().slice(0, 10);
    }
    return {
      key: hashSeed(`${loginId}:card-key:${index}`).toString(36).toUpperCase().padStart(7, "0"),
      serial: index + 1,
      cardNumberMasked: `${t.bin}-${middle}**-****-${last4}`,
      cardName: t.name,
      kind: t.kind,
      state: t.state,
      holder: t.holder,
      overseas: t.overseas,
      validThru: t.validThru,
      usableFrom: t.usableFrom,
      usableUntil,
      dailyUse: t.dailyUse,
    };
  });
}
