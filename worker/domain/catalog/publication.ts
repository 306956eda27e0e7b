import { kstDate } from "../../../contracts/korean-time";
import type { ProviderDefinition } from "./providers";

/**
 * When an institution publishes a schema's data: `AT_COLLECTION`, what it shows when the job asks; `NEXT_MONTH`, each
 * month's data from about `publishedFromDay` of the month after, as Hometax's card data reaches it from the issuers
 * (facts: card data around the 15th of the next month, S1). A job never reads an unpublished month as "no data".
 */
export interface Publication {
  lag: "AT_COLLECTION" | "NEXT_MONTH";
  /** NEXT_MONTH only: the day of the next month from which a month counts as published. */
  publishedFromDay: number | null;
  note: string;
}

const AT_COLLECTION: Publication = { lag: "AT_COLLECTION", publishedFromDay: null, note: "수집 시점에 기관이 보여 주는 자료" };

/** A provider's schema's publication: its own where the provider says one, else as at collection. */
export function publicationOf(provider: Pick<ProviderDefinition, "publication">, schema: string): Publication {
  return provider.publication?.[schema] ?? AT_COLLECTION;
}

/** The first day of the month `months` after the one of `date` (YYYY-MM-DD), months may be negative. */
const monthStart = (date: string, months: number) => new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1 + months, 1)).toISOString().slice(0, 10);

/**
 * The first day of a job's range the institution had not published when the job was asked (`at`), or null when it
 * had published all of it: a month is published from `publishedFromDay` of the month after, in Korea.
 */
export function unpublishedFrom(publication: Publication, range: { start: string; end: string }, at: number): string | null {
  if (publication.lag !== "NEXT_MONTH") return null;
  const today = kstDate(at);
  const firstUnpublished = monthStart(today, Number(today.slice(8, 10)) >= publication.publishedFromDay! ? 0 : -1);
  if (range.end < firstUnpublished) return null;
  return range.start > firstUnpublished ? range.start : firstUnpublished;
}
