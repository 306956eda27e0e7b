import type { InstitutionHttp } from "../../collectors/adapter";
import type { RawRecord } from "../../contracts/task-unit";
import { BUSINESS_STATUS_SCHEMA, ntsBusinessStatusAdapter } from "../../collectors/nts-business-status";
import type { Step } from "./hometax";

const failed = (err: unknown) => {
  const { code, message } = err as { code?: string; message?: string };
  return `${code ?? "ERROR"}: ${message ?? String(err)}`;
};

/** How many records of each kind an answer held: counts, never a number or a name. */
function tally(records: RawRecord[]): string {
  const count = (test: (r: RawRecord) => boolean) => records.filter(test).length;
  return [
    `${records.length} records`,
    `registered ${count((r) => r.registered === true)}`,
    `active ${count((r) => r.statusCode === "01")}`,
    `suspended ${count((r) => r.statusCode === "02")}`,
    `closed ${count((r) => r.statusCode === "03")}`,
    `unregistered ${count((r) => r.registered === false)}`,
  ].join(", ");
}

/**
 * The live check of the NTS business-status API (docs/institutions/nts-business-status.md §10): the person's own
 * service key, the numbers given, one collection through the adapter (100 a call), counted. Nothing is stored and no
 * record is printed.
 */
export async function checkNtsBusinessStatus(http: InstitutionHttp, serviceKey: string, numbers: string[]): Promise<Step[]> {
  const adapter = ntsBusinessStatusAdapter();
  const ctx = { baseUrl: "https://api.odcloud.kr/", deploymentKey: serviceKey };
  const steps: Step[] = [];
  try {
    const session = await adapter.login(http, { authMethod: "DEPLOYMENT_KEY" }, ctx);
    const unit = { jobId: "live-check", unitIndex: 0, schema: BUSINESS_STATUS_SCHEMA, target: null, segment: null, params: { businessNumbers: numbers } };
    steps.push({ step: `status of ${numbers.length} numbers`, ok: true, detail: tally(await adapter.collect(session, unit, ctx)) });
  } catch (err) {
    steps.push({ step: `status of ${numbers.length} numbers`, ok: false, detail: failed(err) });
  }
  return steps;
}
