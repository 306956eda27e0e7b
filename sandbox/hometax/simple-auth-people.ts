import type { SimpleAuthProvider } from "../../contracts/task-unit";
import { SANDBOX_BUSINESS_NUMBER } from "../certificates/issue";

/**
 * A person the replica's 간편인증 apps know: who they are to each app they joined, and the Hometax account their
 * approved login opens (the member of that business, members.ts). Matched on name, birthday and phone as the
 * gateway's providers match them (facts K5, K6: a wrong field and not having joined the app answer alike).
 */
export interface SimpleAuthPerson {
  name: string;
  /** 11 digits, no hyphens. */
  phone: string;
  /** YYYYMMDD. */
  birthDate: string;
  providers: readonly SimpleAuthProvider[];
  /** PASS's carrier letter (`telcoTycd`, K5, K6): S, K or L. */
  carrier?: "S" | "K" | "L";
  businessNumber: string;
  /** Their requests lapse after this many seconds instead of the phone's setting: a person who never answers in time. */
  windowSeconds?: number;
}

export const SIMPLE_AUTH_PEOPLE: readonly SimpleAuthPerson[] = [
  // The demo workspace's owner (120-88-00767), whose ID login's resident-number prefix (members.ts, 8001011) says 1980-01-01.
  { name: "홍길동", phone: "01012345678", birthDate: "19800101", providers: ["kakao", "naver", "pass"], carrier: "S", businessNumber: SANDBOX_BUSINESS_NUMBER },
  { name: "김물산", phone: "01098765432", birthDate: "19851212", providers: ["kakao", "toss"], businessNumber: "2208162517" },
  // Never answers in time: the window lapses after 2 s, so a test sees the expiry without setting the shared phone.
  { name: "최늦음", phone: "01077776666", birthDate: "19750303", providers: ["kakao"], businessNumber: "2208162517", windowSeconds: 2 },
  // One person for each test file that rings phones in the Workers lane, whose files share one sandbox and run side by
  // side: a tap by name, and the hourly asks per person, then concern that file alone.
  { name: "이등록", phone: "01030003000", birthDate: "19810303", providers: ["kakao"], businessNumber: "2208162517" },
  { name: "정재등록", phone: "01040004000", birthDate: "19820404", providers: ["kakao"], businessNumber: SANDBOX_BUSINESS_NUMBER },
  { name: "한제한", phone: "01050005000", birthDate: "19830505", providers: ["kakao"], businessNumber: SANDBOX_BUSINESS_NUMBER },
  { name: "윤파트너", phone: "01060006000", birthDate: "19840606", providers: ["kakao"], businessNumber: "2208162517" },
];

/** Known to no app: every provider answers OACX_NO_USER. */
export const UNKNOWN_PERSON = { name: "박모름", phone: "01055550000", birthDate: "19900505" } as const;

export function simpleAuthPerson(provider: string, name: string, birthDate: string, phone: string, carrier: string | null): SimpleAuthPerson | undefined {
  return SIMPLE_AUTH_PEOPLE.find(
    (p) => p.providers.some((known) => known === provider) && p.name === name && p.birthDate === birthDate && p.phone === phone && (provider !== "pass" || p.carrier === carrier),
  );
}
