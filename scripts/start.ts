import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { newApiKey } from "./demo-seed";
import { startLocalStack } from "./local-stack";

const ROOT = path.resolve(import.meta.dirname, "..");
const KEY_FILE = path.join(ROOT, ".wrangler", "demo-api-key");

/** The demo key: DEMO_API_KEY when set, else the one made on the first start, so restarts keep working curl lines. */
function demoApiKey(): string {
  if (process.env.DEMO_API_KEY) return process.env.DEMO_API_KEY;
  if (existsSync(KEY_FILE)) return readFileSync(KEY_FILE, "utf8").trim();
  const key = newApiKey();
  mkdirSync(path.dirname(KEY_FILE), { recursive: true });
  writeFileSync(KEY_FILE, key);
  return key;
}

const port = Number(process.env.PORT ?? 8787);
const stack = await startLocalStack({
  port,
  sandboxPort: Number(process.env.SANDBOX_PORT ?? 8790),
  scraperPort: Number(process.env.SCRAPER_PORT ?? 8791),
  persistTo: path.join(ROOT, ".wrangler", "state"),
  apiKey: demoApiKey(),
  sweepEveryMs: 60_000,
});

console.log(`
데이터 수집 서비스가 로컬에서 실행 중입니다.
  API             ${stack.baseUrl}/api/v1
  API 레퍼런스     ${stack.baseUrl}/api/v1/docs
  샌드박스 기관    ${stack.sandboxUrl}/bank/
  데모 API 키      ${stack.apiKey}

  curl -H "Authorization: Bearer ${stack.apiKey}" ${stack.baseUrl}/api/v1/providers
Ctrl-C로 모두 종료합니다.
`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void stack.stop().then(() => process.exit(0));
  });
}
