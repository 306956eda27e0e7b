import { ProviderFailure, type ProtocolAdapter } from "../adapter";
import type { DeploymentKeyCredential, RawRecord } from "../../contracts/task-unit";
import { isValidBusinessNumber } from "../../contracts/business-number";
import { MAX_NUMBERS_PER_CALL, NTS_STATUS_HOSTS, serviceKeyQuery, STATUS_URL } from "./hosts";
import { recordsOf } from "./wire";

export const BUSINESS_STATUS_SCHEMA = "business.status.v1";

/** No login: the session is the deployment's key, checked present before any request. */
export interface NtsSession {
  serviceKey: string;
  http: Parameters<ProtocolAdapter["login"]>[0];
}

/** The job's numbers (validated by the worker: 10 digits, checksum, no duplicates, 1..1000), checked again here. */
function numbersOf(params: Record<string, unknown>): string[] {
  const numbers = params.businessNumbers;
  if (!Array.isArray(numbers) || numbers.length === 0) throw new ProviderFailure("INTERNAL_ERROR", "business.status.v1 needs businessNumbers");
  const valid = numbers.map(String);
  if (valid.some((n) => !isValidBusinessNumber(n))) throw new ProviderFailure("INTERNAL_ERROR", "business.status.v1 got a number that is not a business number");
  return [...new Set(valid)];
}

/**
 * 국세청 사업자등록정보 상태조회 (data.go.kr 15081808, docs/institutions/nts-business-status.md): `POST /status` on the
 * odcloud gateway with the deployment's service key, the job's numbers 100 a call, one record per number.
 */
export function ntsBusinessStatusAdapter(): ProtocolAdapter<NtsSession, DeploymentKeyCredential> {
  return {
    kind: "protocol",
    providerCode: "nts.business-status",
    version: "nts.business-status/2026-11-28",
    hosts: NTS_STATUS_HOSTS,
    async login(http, credential, ctx) {
      if (credential.authMethod !== "DEPLOYMENT_KEY") throw new ProviderFailure("INTERNAL_ERROR", "nts.business-status takes the deployment's key, not a workspace credential");
      const serviceKey = ctx.deploymentKey?.trim();
      if (!serviceKey) throw new ProviderFailure("INTERNAL_ERROR", "the scraper has no NTS_SERVICE_KEY");
      return { serviceKey, http };
    },
    async discoverTargets() {
      return [];
    },
    async collect(session, unit) {
      if (unit.schema !== BUSINESS_STATUS_SCHEMA) throw new ProviderFailure("PROVIDER_ERROR", `nts.business-status does not collect ${unit.schema}`);
      const numbers = numbersOf(unit.params);
      const records: RawRecord[] = [];
      for (let at = 0; at < numbers.length; at += MAX_NUMBERS_PER_CALL) {
        const asked = numbers.slice(at, at + MAX_NUMBERS_PER_CALL);
        const response = await session.http.fetch(`${STATUS_URL}?serviceKey=${serviceKeyQuery(session.serviceKey)}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ b_no: asked }),
        });
        records.push(...recordsOf(response, asked));
      }
      return records;
    },
  };
}

export const ntsBusinessStatus = ntsBusinessStatusAdapter();
