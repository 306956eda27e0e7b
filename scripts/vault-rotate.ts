import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { keyringEntries, withNewVersion, withoutUnused } from "../worker/domain/vault/keyring";
import { readDevVars } from "./local-stack";
import { SEALED_COLUMNS, type SealedVersionCount, sealedVersionsQueries } from "./sealed-columns";

/**
 * `npm run vault:rotate`: adds a new master key version to the local stack's keyring (.dev.vars); after a restart,
 * new secrets are sealed with it and the cron moves the old ones onto it (worker/domain/key-rotation/rewrap.ts).
 * `-- --status` counts sealed secrets per key version, table by table (scripts/sealed-columns.ts); `-- --retire` drops
 * versions no secret uses any more, and none while some secret's version is not known yet (`--persist-to <dir>` for a
 * local state other than `npm start`'s).
 * Production does the same with `wrangler secret put VAULT_MASTER_KEY` (docs/deploying.md).
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DEV_VARS = path.join(ROOT, ".dev.vars");
const { values } = parseArgs({ options: { status: { type: "boolean" }, retire: { type: "boolean" }, "persist-to": { type: "string" } } });
const STATE = values["persist-to"] ?? path.join(ROOT, ".wrangler", "state");

/** Sealed secrets per table and key version (null: a version not known yet). */
async function versionsInUse(): Promise<SealedVersionCount[]> {
  const { execFileSync } = await import("node:child_process");
  const query = sealedVersionsQueries().join(";\n");
  let out: string;
  try {
    out = execFileSync(path.join(ROOT, "node_modules/.bin/wrangler"), ["d1", "execute", "collect", "--local", "--persist-to", STATE, "--json", "--command", query], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    throw new Error(`no local database at ${STATE}: run \`npm start\` once first (or pass --persist-to)`);
  }
  const rows = (JSON.parse(out) as { results: SealedVersionCount[] }[]).flatMap((statement) => statement.results ?? []);
  return rows.map((r) => ({ store: r.store, kv: r.kv === null ? null : Number(r.kv), n: Number(r.n) }));
}

function writeKeyring(keyring: string): void {
  const lines = readFileSync(DEV_VARS, "utf8").split("\n").filter((line) => line && !line.startsWith("VAULT_MASTER_KEY="));
  writeFileSync(DEV_VARS, [...lines, `VAULT_MASTER_KEY='${keyring}'`, ""].join("\n"));
}

const keyring = readDevVars(DEV_VARS).VAULT_MASTER_KEY;
if (!keyring) throw new Error("no VAULT_MASTER_KEY in .dev.vars: run `npm start` once first");
if (values.status || values.retire) {
  const inUse = await versionsInUse();
  const count = (kv: number | null, store?: string) => inUse.filter((r) => r.kv === kv && (store === undefined || r.store === store)).reduce((n, r) => n + r.n, 0);
  const line = (label: string, kv: number | null) => `${label}: ${count(kv)} sealed secrets (${Object.keys(SEALED_COLUMNS).map((store) => `${store} ${count(kv, store)}`).join(", ")})`;
  for (const { version } of keyringEntries(keyring)) console.log(line(`v${version}`, version));
  const unknown = count(null);
  if (unknown > 0) console.log(line("version not known yet", null));
  if (values.retire) {
    if (unknown > 0) throw new Error("some sealed secrets' key version is not known yet: let the cron run (it records them), then retire");
    const next = withoutUnused(keyring, new Set(inUse.filter((r) => r.n > 0 && r.kv !== null).map((r) => r.kv!)));
    writeKeyring(next);
    console.log(`keyring now holds ${keyringEntries(next).map((e) => `v${e.version}`).join(", ")}; restart \`npm start\` to use it`);
  }
} else {
  const next = withNewVersion(keyring, randomBytes(32).toString("base64url"));
  writeKeyring(next);
  const newest = keyringEntries(next).at(-1)!.version;
  console.log(`added master key v${newest}: restart \`npm start\`; the cron moves every sealed secret onto it, then \`npm run vault:rotate -- --retire\``);
}
