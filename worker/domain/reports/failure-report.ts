import type { PageReport } from "../../../contracts/scraper-protocol";

/** What a report holds: a scraper's page it could not read, or a certificate check whose crypto could not run (no page). */
export type FailureReport = Omit<PageReport, "surprise"> & { surprise: PageReport["surprise"] | "CERT_CRYPTO_UNAVAILABLE" };
