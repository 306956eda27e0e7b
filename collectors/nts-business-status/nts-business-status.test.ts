import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdapterContext, InstitutionResponse, TaskUnit } from "../adapter";
import { institutionHttp } from "../kit/protocol/institution-http";
import { BusinessStatusRecord } from "../../contracts/records/business";
import { withCheckDigit } from "../../contracts/business-number";
import { REPLICA_BUSINESSES, REPLICA_SERVICE_KEY, UNAPPROVED_SERVICE_KEY, UNREGISTERED_NUMBER } from "../../sandbox/nts-business-status/ground-truth";
import { ntsBusinessStatusStandIns } from "../../sandbox/nts-business-status/stand-ins";
import { type SandboxServer, startSandbox } from "../../sandbox/server";
import { checkNtsBusinessStatus } from "../../scripts/live-check/nts-business-status";
import { BUSINESS_STATUS_SCHEMA, ntsBusinessStatus } from "./index";
import { NTS_STATUS_HOSTS, STATUS_URL } from "./hosts";
import { failureOf, recordsOf } from "./wire";

let replica: SandboxServer;
let down: SandboxServer;
beforeAll(async () => {
  [replica, down] = await Promise.all([startSandbox({ port: 0 }), startSandbox({ port: 0, ntsBusinessStatus: { internalError: true } })]);
});
afterAll(async () => {
  await Promise.all([replica.close(), down.close()]);
});

/** The real adapter against a replica, counting the calls and the numbers each carried. */
function connect(sandbox: SandboxServer = replica) {
  const calls: { url: string; numbers: number }[] = [];
  const http = institutionHttp({
    hosts: ntsBusinessStatus.hosts,
    standIns: ntsBusinessStatusStandIns(sandbox.url),
    transport: (input, init) => {
      calls.push({ url: String(input), numbers: (JSON.parse(String(init?.body)) as { b_no: string[] }).b_no.length });
      return fetch(input, init);
    },
  });
  return { http, calls };
}

const ctxWith = (deploymentKey: string | undefined): AdapterContext => ({ baseUrl: "https://api.odcloud.kr/", deploymentKey });
const unitOf = (businessNumbers: string[]): TaskUnit => ({ jobId: "job", unitIndex: 0, schema: BUSINESS_STATUS_SCHEMA, target: null, segment: null, params: { businessNumbers } });

async function collect(numbers: string[], key: string | undefined = REPLICA_SERVICE_KEY, sandbox: SandboxServer = replica) {
  const { http, calls } = connect(sandbox);
  const ctx = ctxWith(key);
  const session = await ntsBusinessStatus.login(http, { authMethod: "DEPLOYMENT_KEY" }, ctx);
  return { records: await ntsBusinessStatus.collect(session, unitOf(numbers), ctx), calls };
}

const failureCode = (promise: Promise<unknown>) => promise.then(() => "none", (err: { code?: string }) => err.code ?? String(err));

const [active, simplified, suspended, closed, unitClosed] = REPLICA_BUSINESSES;

describe("nts.business-status against its replica", () => {
  it("answers the ground truth of every number, in the order asked, each record valid for business.status.v1", async () => {
    const numbers = [UNREGISTERED_NUMBER, ...REPLICA_BUSINESSES.map((b) => b.b_no)];
    const { records, calls } = await collect(numbers);
    expect(calls).toHaveLength(1);
    for (const record of records) expect(BusinessStatusRecord.safeParse({ schema: BUSINESS_STATUS_SCHEMA, ...record }).success).toBe(true);
    expect(records.map((r) => r.businessNumber)).toEqual(numbers);
    // Unregistered: the number and the flag, and every other field of the record null.
    const { businessNumber, registered, ...rest } = records[0]!;
    expect({ businessNumber, registered }).toEqual({ businessNumber: UNREGISTERED_NUMBER, registered: false });
    expect(Object.keys(rest).sort()).toEqual(Object.keys(BusinessStatusRecord.shape).filter((f) => !["schema", "businessNumber", "registered"].includes(f)).sort());
    expect(Object.values(rest).every((value) => value === null)).toBe(true);
    expect(records[1]).toEqual({
      businessNumber: active!.b_no,
      registered: true,
      status: "계속사업자",
      statusCode: "01",
      taxType: "부가가치세 일반과세자",
      taxTypeCode: "01",
      closureDate: null,
      unitTaxationClosure: false,
      taxTypeChangeDate: null,
      invoiceApplyDate: null,
      previousTaxType: null,
      previousTaxTypeCode: null,
    });
    expect(records[2]).toMatchObject({ statusCode: "01", taxTypeCode: "02", taxTypeChangeDate: "2024-07-01", invoiceApplyDate: "2024-07-01", previousTaxType: "부가가치세 일반과세자", previousTaxTypeCode: "01" });
    expect(records[3]).toMatchObject({ businessNumber: suspended!.b_no, status: "휴업자", statusCode: "02", closureDate: null });
    expect(records[4]).toMatchObject({ businessNumber: closed!.b_no, status: "폐업자", statusCode: "03", taxTypeCode: "04", closureDate: "2025-03-31", unitTaxationClosure: false });
    expect(records[5]).toMatchObject({ businessNumber: unitClosed!.b_no, statusCode: "03", closureDate: "2025-12-31", unitTaxationClosure: true });
    expect(simplified).toBeDefined();
  });

  it("asks 100 numbers a call: 250 numbers are three calls, every number answered once", async () => {
    const numbers = Array.from({ length: 250 }, (_, i) => withCheckDigit(String(700000000 + i)));
    numbers[120] = suspended!.b_no;
    const { records, calls } = await collect(numbers);
    expect(calls.map((c) => c.numbers)).toEqual([100, 100, 50]);
    expect(records).toHaveLength(250);
    expect(records.filter((r) => r.registered).map((r) => r.businessNumber)).toEqual([suspended!.b_no]);
  });

  it("sends the key encoded once, whether it is given plain (Decoding) or as issued encoded (Encoding)", async () => {
    const plain = await collect([active!.b_no]);
    expect(plain.calls[0]!.url).toContain(`serviceKey=${encodeURIComponent(REPLICA_SERVICE_KEY)}`);
    const encoded = await collect([active!.b_no], encodeURIComponent(REPLICA_SERVICE_KEY));
    expect(encoded.calls[0]!.url).toContain(`serviceKey=${encodeURIComponent(REPLICA_SERVICE_KEY)}`);
    expect(encoded.records[0]).toMatchObject({ registered: true });
  });

  it("fails without a request when the scraper holds no key, or is handed a workspace credential", async () => {
    const { http, calls } = connect();
    expect(await failureCode(ntsBusinessStatus.login(http, { authMethod: "DEPLOYMENT_KEY" }, ctxWith(undefined)))).toBe("INTERNAL_ERROR");
    expect(await failureCode(ntsBusinessStatus.login(http, { authMethod: "PROVIDER_LOGIN", loginId: "a", password: "b" } as never, ctxWith(REPLICA_SERVICE_KEY)))).toBe("INTERNAL_ERROR");
    expect(calls).toHaveLength(0);
  });

  it("maps the gateway's refusals of the key and the service's outage to the catalog", async () => {
    expect(await failureCode(collect([active!.b_no], "not-the-key"))).toBe("INTERNAL_ERROR");
    await collect([active!.b_no], "not-the-key").catch((err: Error) => expect(err.message).toMatch(/-401/));
    await collect([active!.b_no], UNAPPROVED_SERVICE_KEY).catch((err: Error) => expect(err.message).toMatch(/-3\b/));
    expect(await failureCode(collect([active!.b_no], REPLICA_SERVICE_KEY, down))).toBe("PROVIDER_ERROR");
  });

  it("the replica refuses more than 100 numbers (413), no list (411) and bad JSON (400) as the sources show", async () => {
    const url = `${ntsBusinessStatusStandIns(replica.url)["api.odcloud.kr"]}/api/nts-businessman/v1/status?serviceKey=${encodeURIComponent(REPLICA_SERVICE_KEY)}`;
    const post = async (body: string) => {
      const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const tooMany = await post(JSON.stringify({ b_no: Array.from({ length: 101 }, () => active!.b_no) }));
    expect(tooMany).toEqual({ status: 413, body: { status_code: "TOO_LARGE_REQUEST" } });
    expect(await post(JSON.stringify({}))).toEqual({ status: 411, body: { status_code: "REQUEST_DATA_MALFORMED" } });
    expect(await post("{")).toEqual({ status: 400, body: { status_code: "BAD_JSON_REQUEST" } });
    const asWire = (answer: { status: number; body: unknown }): InstitutionResponse => ({ url: STATUS_URL, status: answer.status, headers: new Headers(), text: JSON.stringify(answer.body) });
    expect(failureOf(asWire(tooMany))?.code).toBe("INTERNAL_ERROR");
  });

  it("runs the live check's steps against the replica: counts only", async () => {
    const { http } = connect();
    const steps = await checkNtsBusinessStatus(http, REPLICA_SERVICE_KEY, [active!.b_no, closed!.b_no, UNREGISTERED_NUMBER]);
    expect(steps).toEqual([{ step: "status of 3 numbers", ok: true, detail: "3 records, registered 2, active 1, suspended 0, closed 1, unregistered 1" }]);
    expect(JSON.stringify(steps)).not.toContain(active!.b_no);
  });
});

describe("reading the status answer", () => {
  const answer = (body: unknown, status = 200): InstitutionResponse => ({ url: STATUS_URL, status, headers: new Headers(), text: JSON.stringify(body) });
  const item = (b_no: string) => ({ b_no, b_stt: "계속사업자", b_stt_cd: "01", tax_type: "부가가치세 일반과세자", tax_type_cd: "01", end_dt: "", utcc_yn: "N", tax_type_change_dt: "", invoice_apply_dt: "" });
  const code = (fn: () => unknown) => {
    try {
      fn();
      return "none";
    } catch (err) {
      return (err as { code?: string }).code;
    }
  };

  it("maps each error the sources name to the job failure catalog", () => {
    expect(failureOf(answer({ code: -401, msg: "x" }, 401))?.code).toBe("INTERNAL_ERROR");
    // N3's sample of -3 is an HTTP 200.
    expect(failureOf(answer({ code: -3, msg: "등록되지 않은 서비스 입니다." }, 200))?.code).toBe("INTERNAL_ERROR");
    expect(failureOf(answer({ code: -9, msg: "?" }, 400))?.code).toBe("UNKNOWN");
    expect(failureOf(answer({ status_code: "REQUEST_DATA_MALFORMED" }, 411))?.code).toBe("INTERNAL_ERROR");
    expect(failureOf(answer({ status_code: "BAD_JSON_REQUEST" }, 400))?.code).toBe("INTERNAL_ERROR");
    expect(failureOf(answer({ status_code: "INTERNAL_ERROR" }, 500))?.code).toBe("PROVIDER_ERROR");
    expect(failureOf(answer({ status_code: "SOMETHING_NEW" }, 400))?.code).toBe("UNKNOWN");
    expect(failureOf(answer("<html>", 502))?.code).toBe("PROVIDER_ERROR");
    expect(failureOf(answer({}, 413))?.code).toBe("INTERNAL_ERROR");
    expect(failureOf(answer({}, 429))?.code).toBe("RATE_LIMITED");
    expect(failureOf({ url: STATUS_URL, status: 200, headers: new Headers(), text: "not json" })?.code).toBe("PROVIDER_RESPONSE_MALFORMED");
  });

  it("keeps no record of an answer that does not answer each number asked exactly once", () => {
    const [a, b] = [active!.b_no, closed!.b_no];
    expect(code(() => recordsOf(answer({ status_code: "OK", data: [item(a)] }), [a, b]))).toBe("PROVIDER_RESPONSE_MALFORMED");
    expect(code(() => recordsOf(answer({ status_code: "OK", data: [item(a), item(a)] }), [a, b]))).toBe("PROVIDER_RESPONSE_MALFORMED");
    expect(code(() => recordsOf(answer({ status_code: "OK", data: [item(a), item(UNREGISTERED_NUMBER)] }), [a, b]))).toBe("PROVIDER_RESPONSE_MALFORMED");
    expect(code(() => recordsOf(answer({ status_code: "OK", request_cnt: 3, data: [item(a), item(b)] }), [a, b]))).toBe("PROVIDER_RESPONSE_MALFORMED");
    expect(code(() => recordsOf(answer({ status_code: "OK", data: [{ ...item(a), end_dt: "2025-13" }] }), [a]))).toBe("PROVIDER_RESPONSE_MALFORMED");
    expect(code(() => recordsOf(answer({ status_code: "OK", data: [{ ...item(a), utcc_yn: "?" }] }), [a]))).toBe("PROVIDER_RESPONSE_MALFORMED");
    // Answered in another order: matched by number, returned in the order asked; an item without rbf_* (before v1.1) is read.
    expect(recordsOf(answer({ status_code: "OK", data: [item(b), item(a)] }), [a, b]).map((r) => [r.businessNumber, r.previousTaxTypeCode])).toEqual([
      [a, null],
      [b, null],
    ]);
  });

  it("declares the one real host it calls", () => {
    expect(NTS_STATUS_HOSTS).toEqual(["api.odcloud.kr"]);
  });
});
