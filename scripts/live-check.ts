import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import type { LoginCredential } from "../collectors/adapter";
import { HOMETAX_HOSTS } from "../collectors/hometax/hosts";
import { institutionHttp } from "../collectors/kit/protocol/institution-http";
import { parseInstitutionBaseUrls } from "../collectors/kit/protocol/stand-ins";
import { egress } from "../scraper-container/egress";
import { checkHometax, checkHometaxSimpleAuth } from "./live-check/hometax";
import { MOBILE_CARRIERS, type MobileCarrier, SIMPLE_AUTH_PROVIDERS, type SimpleAuthProvider } from "../collectors/adapter";
import { checkNtsBusinessStatus } from "./live-check/nts-business-status";
import { atStandIn, checkOpenBanking } from "./live-check/openbanking";
import { OPENBANKING_HOSTS } from "../collectors/openbanking/hosts";
import { NTS_STATUS_HOSTS } from "../collectors/nts-business-status/hosts";
import { isValidBusinessNumber } from "../contracts/business-number";

/**
 * `npm run live:check -- --provider hometax --cert-dir <dir>`: one small query against the real institution with a
 * real certificate, by a person in Korea (docs/institutions/hometax.md, "Live check"). Never run in CI. Counts
 * only; nothing is stored and no record is printed. The certificate's password is asked on the terminal (or
 * LIVE_CHECK_PASSWORD); EGRESS_PROXY_URL and INSTITUTION_BASE_URLS apply as in the scraper.
 */
const { values } = parseArgs({
  options: {
    provider: { type: "string" },
    "cert-dir": { type: "string" },
    "login-id": { type: "string" },
    // Repeatable for nts.business-status: --business-number 1234567890 --business-number …
    "business-number": { type: "string", multiple: true },
    month: { type: "string" },
    // openbanking: the port of http://localhost:<port>/callback, the app's Callback URL registered at KFTC.
    port: { type: "string" },
  },
});

function usage(message: string): never {
  console.error(`${message}\n사용법: npm run live:check -- --provider hometax (--cert-dir <signCert.der와 signPri.key가 있는 폴더> | --login-id <아이디>) [--business-number 1234567890] [--month 2026-10]
       HOMETAX_SIMPLE_AUTH_NAME=홍길동 HOMETAX_SIMPLE_AUTH_PHONE=01012345678 HOMETAX_SIMPLE_AUTH_BIRTH=19800101 HOMETAX_SIMPLE_AUTH_PROVIDER=kakao [HOMETAX_SIMPLE_AUTH_CARRIER=SKT] npm run live:check -- --provider hometax [--business-number …] [--month …]\n       NTS_SERVICE_KEY=<서비스키> npm run live:check -- --provider nts.business-status --business-number 1234567890 [--business-number …]
       OPENBANKING_CLIENT_ID=… OPENBANKING_CLIENT_SECRET=… OPENBANKING_CLIENT_USE_CODE=… npm run live:check -- --provider openbanking [--port 8080] [--month 2026-10]`);
  process.exit(2);
}

async function secret(prompt: string, envName: string): Promise<string> {
  if (process.env[envName]) return process.env[envName];
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  // Echo nothing of what is typed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => undefined;
  process.stdout.write(prompt);
  const answer = await new Promise<string>((resolve) => rl.question("", resolve));
  rl.close();
  process.stdout.write("\n");
  return answer;
}

function lastMonth(): { start: string; end: string } {
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
}

function monthOf(value: string): { start: string; end: string } {
  if (!/^\d{4}-\d{2}$/.test(value)) usage("--month는 YYYY-MM 형식이어야 합니다.");
  const [y, m] = value.split("-").map(Number);
  return { start: `${value}-01`, end: new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10) };
}

if (values.provider === "nts.business-status") {
  // docs/institutions/nts-business-status.md §10: the person's own data.go.kr key, from the environment only.
  const serviceKey = process.env.NTS_SERVICE_KEY?.trim();
  if (!serviceKey) usage("NTS_SERVICE_KEY 환경 변수에 공공데이터포털 서비스키(Decoding 또는 Encoding)를 넣어 주세요.");
  const numbers = (values["business-number"] ?? []).map((n) => n.replace(/-/g, ""));
  if (numbers.length === 0 || numbers.some((n) => !isValidBusinessNumber(n))) usage("--business-number에 올바른 사업자등록번호(숫자 10자리)를 하나 이상 주세요.");
  const standIns = parseInstitutionBaseUrls(process.env.INSTITUTION_BASE_URLS)["nts.business-status"];
  const transport = egress({ proxyUrl: process.env.EGRESS_PROXY_URL || undefined })("nts.business-status");
  console.log(`국세청 사업자등록 상태조회 실기관 확인: ${standIns ? "대역(INSTITUTION_BASE_URLS)" : "https://api.odcloud.kr"}, ${numbers.length}개 번호, 건수만 확인하고 아무것도 저장하지 않습니다.`);
  const steps = await checkNtsBusinessStatus(institutionHttp({ hosts: NTS_STATUS_HOSTS, standIns, transport }), serviceKey, numbers);
  for (const { step, ok, detail } of steps) console.log(`${ok ? "✓" : "✗"} ${step}: ${detail}`);
  console.log(`\n${new Date().toISOString().slice(0, 10)} 결과를 docs/institutions/nts-business-status.md의 "Live check" 표에 날짜와 함께 기록해 주세요.`);
  process.exit(steps.some((s) => !s.ok) ? 1 : 0);
}
if (values.provider === "openbanking") {
  // docs/institutions/openbanking.md §12: the developer's testbed app keys, from the environment only.
  const { OPENBANKING_CLIENT_ID: clientId, OPENBANKING_CLIENT_SECRET: clientSecret, OPENBANKING_CLIENT_USE_CODE: clientUseCode } = process.env;
  if (!clientId || !clientSecret || !clientUseCode || !/^[A-Z0-9]{10}$/.test(clientUseCode)) {
    usage("OPENBANKING_CLIENT_ID, OPENBANKING_CLIENT_SECRET, OPENBANKING_CLIENT_USE_CODE(이용기관코드 10자리) 환경 변수에 테스트베드 앱의 키를 넣어 주세요.");
  }
  const port = Number(values.port ?? 8080);
  if (!Number.isInteger(port) || port < 1 || port > 65535) usage("--port는 1..65535의 숫자여야 합니다.");
  const standIns = parseInstitutionBaseUrls(process.env.INSTITUTION_BASE_URLS).openbanking;
  const transport = egress({ proxyUrl: process.env.EGRESS_PROXY_URL || undefined })("openbanking");
  const month = values.month ? monthOf(values.month) : lastMonth();
  console.log(`오픈뱅킹 테스트베드 실기관 확인: ${standIns ? "대역(INSTITUTION_BASE_URLS)" : "https://testapi.openbanking.or.kr"}, 콜백 http://localhost:${port}/callback (앱의 Callback URL로 등록), ${month.start}..${month.end}, 건수만 확인하고 아무것도 저장하지 않습니다.`);
  const steps = await checkOpenBanking({
    http: institutionHttp({ hosts: OPENBANKING_HOSTS, standIns, transport }),
    keys: { clientId, clientSecret, clientUseCode },
    port,
    month,
    browserUrl: (real) => atStandIn(real, standIns),
    showAuthorizationUrl: (url) => console.log(`\n브라우저에서 이 주소를 열어 테스트 사용자로 동의해 주세요 (10분 안에):\n  ${url}\n`),
  });
  for (const { step, ok, detail } of steps) console.log(`${ok ? "✓" : "✗"} ${step}: ${detail}`);
  console.log(`\n${new Date().toISOString().slice(0, 10)} 결과를 docs/institutions/openbanking.md의 "Live check"(§12) 표에 날짜와 함께 기록해 주세요.`);
  process.exit(steps.some((s) => !s.ok) ? 1 : 0);
}
if (values.provider !== "hometax") usage("지금 실기관 확인을 할 수 있는 기관은 hometax, nts.business-status, openbanking입니다.");
if (process.env.HOMETAX_SIMPLE_AUTH_NAME) {
  // 간편인증 (docs/institutions/hometax.md, "간편인증 (OACX)"): the person's own data, from the environment only; their phone rings.
  const env = process.env;
  const provider = env.HOMETAX_SIMPLE_AUTH_PROVIDER ?? "kakao";
  const carrier = env.HOMETAX_SIMPLE_AUTH_CARRIER;
  if (!SIMPLE_AUTH_PROVIDERS.includes(provider as SimpleAuthProvider)) usage(`HOMETAX_SIMPLE_AUTH_PROVIDER는 ${SIMPLE_AUTH_PROVIDERS.join(", ")} 중 하나여야 합니다.`);
  if (carrier && !MOBILE_CARRIERS.includes(carrier as MobileCarrier)) usage(`HOMETAX_SIMPLE_AUTH_CARRIER는 ${MOBILE_CARRIERS.join(", ")} 중 하나여야 합니다.`);
  if (!env.HOMETAX_SIMPLE_AUTH_PHONE || !env.HOMETAX_SIMPLE_AUTH_BIRTH) usage("HOMETAX_SIMPLE_AUTH_PHONE(010으로 시작하는 11자리)과 HOMETAX_SIMPLE_AUTH_BIRTH(YYYYMMDD)가 필요합니다.");
  const credential = {
    authMethod: "SIMPLE_AUTH" as const,
    name: env.HOMETAX_SIMPLE_AUTH_NAME ?? "",
    phone: env.HOMETAX_SIMPLE_AUTH_PHONE.replace(/-/g, ""),
    birthDate: env.HOMETAX_SIMPLE_AUTH_BIRTH,
    provider: provider as SimpleAuthProvider,
    ...(carrier ? { carrier: carrier as MobileCarrier } : {}),
  };
  const standIns = parseInstitutionBaseUrls(process.env.INSTITUTION_BASE_URLS).hometax;
  const transport = egress({ proxyUrl: process.env.EGRESS_PROXY_URL || undefined })("hometax");
  const month = values.month ? monthOf(values.month) : lastMonth();
  console.log(`홈택스 간편인증 실기관 확인: ${standIns ? "대역(INSTITUTION_BASE_URLS)" : "https://hometax.go.kr"}, ${month.start}..${month.end} 세금계산서, 건수만 확인하고 아무것도 저장하지 않습니다.`);
  const steps = await checkHometaxSimpleAuth(institutionHttp({ hosts: HOMETAX_HOSTS, standIns, transport }), credential, values["business-number"]?.[0], month, (approval) =>
    console.log(`\n휴대폰의 ${approval.provider} 앱에 온 홈택스 인증 요청을 ${new Date(approval.until).toLocaleTimeString("ko-KR")}까지 승인해 주세요.\n`),
  );
  for (const { step, ok, detail } of steps) console.log(`${ok ? "✓" : "✗"} ${step}: ${detail}`);
  console.log(`\n${new Date().toISOString().slice(0, 10)} 결과를 docs/institutions/hometax.md의 "간편인증 (OACX)" 절 "Live check" 표에 날짜와 함께 기록해 주세요.`);
  process.exit(steps.some((s) => !s.ok) ? 1 : 0);
}
let credential: LoginCredential;
if (values["cert-dir"]) {
  const read = (name: string) => readFileSync(path.join(values["cert-dir"]!, name)).toString("base64");
  credential = { authMethod: "CERTIFICATE", certificate: read("signCert.der"), privateKey: read("signPri.key"), password: await secret("인증서 비밀번호: ", "LIVE_CHECK_PASSWORD") };
} else if (values["login-id"]) {
  const password = await secret("비밀번호: ", "LIVE_CHECK_PASSWORD");
  const secondFactor = await secret("주민등록번호 앞 7자리 (없으면 Enter): ", "LIVE_CHECK_SECOND_FACTOR");
  credential = { authMethod: "PROVIDER_LOGIN", loginId: values["login-id"], password, ...(secondFactor ? { secondFactor } : {}) };
} else usage("--cert-dir 또는 --login-id가 필요합니다.");

const standIns = parseInstitutionBaseUrls(process.env.INSTITUTION_BASE_URLS).hometax;
const transport = egress({ proxyUrl: process.env.EGRESS_PROXY_URL || undefined })("hometax");
const month = values.month ? monthOf(values.month) : lastMonth();
console.log(`홈택스 실기관 확인: ${standIns ? "대역(INSTITUTION_BASE_URLS)" : "https://hometax.go.kr"}, ${month.start}..${month.end}, 건수만 확인하고 아무것도 저장하지 않습니다.`);
const steps = await checkHometax(() => institutionHttp({ hosts: HOMETAX_HOSTS, standIns, transport }), credential, values["business-number"]?.[0], month);
for (const { step, ok, detail } of steps) console.log(`${ok ? "✓" : "✗"} ${step}: ${detail}`);
console.log(`\n${new Date().toISOString().slice(0, 10)} 결과를 docs/institutions/hometax.md의 "Live check" 표에 날짜와 함께 기록해 주세요.`);
process.exit(steps.some((s) => !s.ok) ? 1 : 0);
