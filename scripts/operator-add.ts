import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { OPERATOR_ROLES, type OperatorRole } from "../worker/domain/operators/tables";
import { totpUri } from "../worker/domain/operators/second-factor";
import { normalizeEmail } from "../worker/domain/users/email";
import { newDemoPassword, operatorSeedSql } from "./demo-seed";
import { readDevVars } from "./local-stack";

/**
 * `npm run operator:add -- --email <e-mail> --role viewer|support|admin [--remote]`: makes an operator account (or
 * replaces one with that e-mail) with a new password and TOTP secret, printed once for the person to enrol their
 * authenticator app. Operators are never made through the web: only someone who holds the database and the vault's
 * master key can add one. Local by default (`npm start`'s state, or `--persist-to`); `--remote` writes production's
 * D1 through wrangler and takes the master key from VAULT_MASTER_KEY in the environment (docs/operations.md).
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { email: { type: "string" }, role: { type: "string" }, remote: { type: "boolean" }, "persist-to": { type: "string" } } });
const role = values.role as OperatorRole;
if (!values.email || !OPERATOR_ROLES.includes(role)) {
  console.error(`usage: npm run operator:add -- --email <e-mail> --role ${OPERATOR_ROLES.join("|")} [--remote]`);
  process.exit(2);
}
const masterKey = values.remote ? process.env.VAULT_MASTER_KEY : (process.env.VAULT_MASTER_KEY ?? readDevVars(path.join(ROOT, ".dev.vars")).VAULT_MASTER_KEY);
if (!masterKey) {
  console.error(values.remote ? "VAULT_MASTER_KEY must hold production's keyring for --remote" : "no VAULT_MASTER_KEY in .dev.vars: run `npm start` once first");
  process.exit(2);
}
const password = newDemoPassword();
const { sql, totpSecret } = await operatorSeedSql({ email: values.email, password, role }, masterKey);
const file = path.join(mkdtempSync(path.join(tmpdir(), "operator-")), "operator.sql");
writeFileSync(file, sql, { mode: 0o600 });
const where = values.remote ? ["--remote"] : ["--local", "--persist-to", values["persist-to"] ?? path.join(ROOT, ".wrangler", "state")];
execFileSync(path.join(ROOT, "node_modules/.bin/wrangler"), ["d1", "execute", "collect", ...where, "--file", file], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
console.log(`운영자 ${normalizeEmail(values.email)} (${role})
  비밀번호   ${password}
  TOTP       ${totpUri(normalizeEmail(values.email), totpSecret)}
이 값들은 다시 보여 주지 않습니다. 인증 앱에 TOTP를 등록하게 하고 비밀번호와 함께 안전하게 전하세요.`);
