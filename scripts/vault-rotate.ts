import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { keyringEntries, withNewVersion, withoutUnused } from "../worker/domain/vault/keyring";
import { readDevVars } from "./local-stack";

/**
 * `npm run vault:rotate`: adds a new master key version to the local stack's keyring (.dev.vars); after a restart,
 * new secrets are sealed with it and the cron moves the old ones onto it (worker/domain/key-rotation/rewrap.ts).
 * `-- --status` counts sealed secrets per key version; `-- --retire` drops versions no secret uses any more
 * (`--persist-to <dir>` for a local state other than `npm start`'s).
 * Production does the same with `wrangler secret put VAULT_MASTER_KEY` (docs/deploying.md).
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DEV_VARS = path.join(ROOT, ".dev.vars");
const { values } = parseArgs({ options: { status: { type: "boolean" }, retire: { type: "boolean" }, "persist-to": { type: "string" } } });
const STATE = values["persist-to"] ?? path.join(ROOT, ".wrangler", "state");

async function versionsInUse(): Promise<Map<number, number>> {
  const { execFileSync } = await import("node:child_process");
  const query = `SELECT kv, SUM(n) AS n FROM (
    SELECT json_extract(sealed, '$.kv') AS kv, COUNT(*) AS n FROM credentials WHERE sealed IS NOT NULL GROUP BY 1
    UNION ALL SELECT json_extract(sealed_secret, '$.kv'), COUNT(*) FROM webhook_endpoints GROUP BY 1
    UNION ALL SELECT json_extract(previous_sealed_secret, '$.kv'), COUNT(*) FROM webhook_endpoints WHERE previous_sealed_secret IS NOT NULL GROUP BY 1
    UNION ALL SELECT json_extract(totp_sealed, '$.kv'), COUNT(*) FROM operators GROUP BY 1
  ) GROUP BY kv`;
  let out: string;
  try {
    out = execFileSync(path.join(ROOT, "node_modules/.bin/wrangler"), ["d1", "execute", "collect", "--local", "--persist-to", STATE, "--json", "--command", query], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    throw new Error(`no local database at ${STATE}: run \`npm start\` once first (or pass --persist-to)`);
  }
  const rows = (JSON.parse(out) as { results: { kv: number; n: number }[] }[])[0]?.results ?? [];
  return new Map(rows.map((r) => [Number(r.kv), Number(r.n)]));
}

function writeKeyring(keyring: string): void {
  const lines = readFileSync(DEV_VARS, "utf8").split("\n").filter((line) => line && !line.startsWith("VAULT_MASTER_KEY="));
  writeFileSync(DEV_VARS, [...lines, `VAULT_MASTER_KEY='${keyring}'`, ""].join("\n"));
}

const keyring = readDevVars(DEV_VARS).VAULT_MASTER_KEY;
if (!keyring) throw new Error("no VAULT_MASTER_KEY in .dev.vars: run `npm start` once first");
if (values.status || values.retire) {
  const inUse = await versionsInUse();
  for (const { version } of keyringEntries(keyring)) console.log(`v${version}: ${inUse.get(version) ?? 0} sealed secrets`);
  if (values.retire) {
    const next = withoutUnused(keyring, new Set([...inUse].filter(([, n]) => n > 0).map(([kv]) => kv)));
    writeKeyring(next);
    console.log(`keyring now holds ${keyringEntries(next).map((e) => `v${e.version}`).join(", ")}; restart \`npm start\` to use it`);
  }
} else {
  const next = withNewVersion(keyring, randomBytes(32).toString("base64url"));
  writeKeyring(next);
  const newest = keyringEntries(next).at(-1)!.version;
  console.log(`added master key v${newest}: restart \`npm start\`; the cron moves every sealed secret onto it, then \`npm run vault:rotate -- --retire\``);
}
