import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { newApiKey, newDemoPassword } from "./demo-seed";
import { newTotpSecret, totpUri } from "../worker/domain/operators/second-factor";
import { localInstitutionBaseUrls } from "./local-institutions";
import { startLocalStack } from "./local-stack";
import { consentOpenBanking, DEMO_OPENBANKING_USER } from "./demo-openbanking";
import { openBankingStandIns } from "../sandbox/openbanking/stand-ins";
import { portIsFree } from "./free-port";
import { PHONE_PAGE } from "../sandbox/hometax/phone-page";

const ROOT = path.resolve(import.meta.dirname, "..");
/** A demo secret: the environment's when set, else the one made on the first start, so restarts keep working curl lines and sign-ins. */
function remembered(envName: string, fileName: string, make: () => string): string {
  if (process.env[envName]) return process.env[envName];
  const file = path.join(ROOT, ".wrangler", fileName);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const value = make();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, value);
  return value;
}

// `npm start` dying by SIGKILL runs no handler and leaves this process to init: it ends too (the children's watchdog,
// scripts/child-watchdog.ts, ends them). The package's start script execs this process, so npm is its parent.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 500).unref();

const ports = { PORT: Number(process.env.PORT ?? 8787), SANDBOX_PORT: Number(process.env.SANDBOX_PORT ?? 8790), SCRAPER_PORT: Number(process.env.SCRAPER_PORT ?? 8791) };
// Whatever holds a port (an earlier start's worker, most often) would answer in this start's place, unnoticed.
for (const [name, taken] of Object.entries(ports)) {
  if (await portIsFree(taken)) continue;
  console.error(`포트 ${taken}(${name})을 이미 다른 프로세스가 쓰고 있어 시작하지 않습니다. 이전 npm start가 남아 있다면 그 프로세스를 끝내거나, ${name}=<다른 포트>로 시작하세요.`);
  process.exit(1);
}

// The children's output (wrangler's bindings table and request lines, the scraper's, the sandbox's) goes to these files,
// so the banner below stays the last thing on the screen.
const STATE_DIR = process.env.LOCAL_STATE_DIR ?? path.join(ROOT, ".wrangler", "state");
const LOG_DIR = path.join(STATE_DIR, "logs");
console.log(`시작하는 중입니다. 워커·스크레이퍼·샌드박스의 출력은 ${path.relative(process.cwd(), LOG_DIR) || LOG_DIR}/ 에 남습니다.`);

const stack = await startLocalStack({
  logDir: LOG_DIR,
  port: ports.PORT,
  sandboxPort: ports.SANDBOX_PORT,
  scraperPort: ports.SCRAPER_PORT,
  // LOCAL_STATE_DIR: another checkout's (or a test's) state, beside this one's.
  persistTo: STATE_DIR,
  apiKey: remembered("DEMO_API_KEY", "demo-api-key", newApiKey),
  demoPassword: remembered("DEMO_PASSWORD", "demo-password", newDemoPassword),
  demoOperator: {
    password: remembered("DEMO_OPERATOR_PASSWORD", "demo-operator-password", newDemoPassword),
    totpSecret: remembered("DEMO_OPERATOR_TOTP_SECRET", "demo-operator-totp-secret", newTotpSecret),
  },
  sweepEveryMs: 60_000,
});

// The demo's Open Banking consent, given through the real flow on every start (the replica forgets its tokens when
// it stops); skipped when this process's INSTITUTION_BASE_URLS points openbanking elsewhere than the replica.
let openBankingLine: string;
if (JSON.stringify(localInstitutionBaseUrls(stack.sandboxUrl).openbanking) !== JSON.stringify(openBankingStandIns(stack.sandboxUrl))) {
  openBankingLine = "INSTITUTION_BASE_URLS가 openbanking을 복제본이 아닌 곳으로 보내므로 데모 동의는 만들지 않았습니다";
} else {
  try {
    const demo = await consentOpenBanking(stack.baseUrl, stack.apiKey);
    openBankingLine = `${DEMO_OPENBANKING_USER}의 계좌 ${demo.accounts}개에 동의한 자격 증명 ${demo.credentialId}: openbanking 작업을 바로 실행할 수 있습니다`;
  } catch (err) {
    openBankingLine = `데모 동의를 만들지 못했습니다: ${(err as Error).message}`;
  }
}

console.log(`
데이터 수집 서비스가 로컬에서 실행 중입니다.
  API             ${stack.baseUrl}/api/v1
  API 레퍼런스     ${stack.baseUrl}/api/v1/docs
  콘솔             ${stack.baseUrl}/console
  콘솔 로그인      ${stack.demoUser.email} / ${stack.demoUser.password}
  운영자 콘솔      ${stack.baseUrl}/admin
  운영자 로그인    ${stack.demoOperator.email} / ${stack.demoOperator.password}
  운영자 TOTP      ${totpUri(stack.demoOperator.email, stack.demoOperator.totpSecret)}
                  (인증 앱에 이 주소나 비밀 ${stack.demoOperator.totpSecret}을 등록하고 6자리 코드로 로그인합니다)
  샌드박스 기관    ${stack.sandboxUrl}/bank/
  간편인증 휴대폰  ${stack.sandboxUrl}${PHONE_PAGE}
                  (샌드박스 홈택스의 간편인증 요청을 이 화면에서 승인하거나 거절합니다)
  데모 API 키      ${stack.apiKey}
  오픈뱅킹         ${openBankingLine}
                  (복제본 ${stack.sandboxUrl}/openbanking/, 사용자 obuser1·obuser2 / pass_good)

  curl -H "Authorization: Bearer ${stack.apiKey}" ${stack.baseUrl}/api/v1/providers
  curl -H "Authorization: Bearer ${stack.apiKey}" -H "Content-Type: application/json" ${stack.baseUrl}/api/v1/data-jobs \\
    -d '{"providerCode":"openbanking","schema":"bank.transactions.cb.v1","params":{"dateRangeStart":"2026-01-01","dateRangeEnd":"2026-03-31"}}'
  로그            ${LOG_DIR}/worker.log, scraper.log, sandbox.log
Ctrl-C로 모두 종료합니다.
`);

// SIGHUP: the terminal closed. A second signal while stopping ends this process at once, and the watchdog the rest.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    void stack.stop().then(() => process.exit(0));
  });
}
