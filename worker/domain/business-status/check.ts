import type { RawRecord } from "../../../contracts/task-unit";
import { log } from "../../platform/observability/telemetry";
import { scraperClient } from "../scraper/binding";
import { findProvider } from "../catalog/providers";
import { isSandboxOnly, opensTo } from "../workspaces/provider-access";
import { type BusinessStatus, saveStatuses, statusesOf } from "./store";

const PROVIDER = "nts.business-status";
const SCHEMA = "business.status.v1";
/** NTS refreshes its data about every 30 minutes (N1, unverified); a business's status is asked again after a day. */
export const STATUS_TTL_MS = 86_400_000;
/** How long a page waits for NTS before it shows what it knew: the check is a nicety, never a reason to be slow. */
const CHECK_WAIT_MS = 3_000;
/** The API takes 100 numbers a call (N2, N3, N7): one call's worth a page. */
const MAX_ASKED = 100;

type CheckEnv = Pick<Env, "DB" | "NTS_SERVICE_KEY" | "SCRAPER_SHARED_SECRET"> & Parameters<typeof scraperClient>[0];

/**
 * Whether this deployment checks business numbers: it holds the NTS service key, the one its scraper calls with
 * (docs/deploying.md). Without it nothing is asked and nothing is shown.
 */
export const statusChecksOn = (env: Pick<Env, "NTS_SERVICE_KEY">): boolean => Boolean(env.NTS_SERVICE_KEY?.trim());

function statusOf(record: RawRecord, now: number): BusinessStatus {
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  return { businessNumber: String(record.businessNumber), registered: record.registered === true, statusCode: text(record.statusCode), status: text(record.status), closureDate: text(record.closureDate), checkedAt: now };
}

/** One call of the business-status adapter through the scraper, on the deployment's key, as a job's unit would run. */
async function askNts(env: CheckEnv, numbers: string[], now: number): Promise<BusinessStatus[]> {
  const scraper = scraperClient(env);
  if (!scraper) return [];
  const { sessionId } = await scraper.openSession(PROVIDER, { authMethod: "DEPLOYMENT_KEY" });
  try {
    const unit = { jobId: `business-status:${crypto.randomUUID()}`, unitIndex: 0, schema: SCHEMA, target: null, segment: null, params: { businessNumbers: numbers } };
    return (await scraper.collect(sessionId, unit)).map((record) => statusOf(record, now));
  } finally {
    await scraper.closeSession(sessionId);
  }
}

/**
 * What NTS says of `numbers`, for a page of `workspaceId`: kept answers younger than a day, the rest asked now (at
 * most 100, waited for CHECK_WAIT_MS) and kept. A failed or slow check is logged for the operators and the page shows
 * what was known. Nothing for a workspace the provider is not open to (its owner's e-mail not confirmed): the
 * deployment's key is a real institution's, as a job on it is.
 */
export async function currentStatuses(env: CheckEnv, workspaceId: string, numbers: readonly string[], now = Date.now()): Promise<Map<string, BusinessStatus>> {
  if (!statusChecksOn(env) || !opensTo(await isSandboxOnly(env.DB, workspaceId), findProvider(PROVIDER)!)) return new Map();
  const distinct = [...new Set(numbers)];
  const known = await statusesOf(env.DB, distinct);
  const due = distinct.filter((n) => !known.has(n) || now - known.get(n)!.checkedAt >= STATUS_TTL_MS).slice(0, MAX_ASKED);
  if (due.length === 0) return known;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const asked = askNts(env, due, now).then(async (fresh) => {
      await saveStatuses(env.DB, fresh);
      return fresh;
    });
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_WAIT_MS} ms`)), CHECK_WAIT_MS)));
    for (const status of await Promise.race([asked, late])) known.set(status.businessNumber, status);
  } catch (err) {
    log("warn", "business-status-check-failed", { numbers: due.length, detail: err instanceof Error ? err.message : String(err) });
  } finally {
    clearTimeout(timer);
  }
  return known;
}
