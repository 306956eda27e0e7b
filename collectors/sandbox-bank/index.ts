import type { BrowserAdapter } from "../adapter";
import { ProviderFailure } from "../adapter";
import { accountRecords, accountTargets } from "./accounts";
import { login } from "./login";
import { transactionRecords } from "./transactions";

/** The sandbox bank (`sandbox.bank`): accounts and transactions from its internet-banking site. */
export const sandboxBank: BrowserAdapter = {
  kind: "browser",
  providerCode: "sandbox.bank",
  version: "sandbox-bank/2026-11-26",
  // The bank greets its customers by name ("김하늘 고객님").
  redaction: [{ pattern: /[가-힣]{2,4}(?=\s*고객님)/g, replacement: "○○○" }],
  login,
  async discoverTargets(page, schema, ctx) {
    return schema === "bank.transactions.cb.v1" ? accountTargets(page, ctx) : [];
  },
  async collect(page, unit, ctx) {
    if (unit.schema === "bank.accounts.cb.v1") return accountRecords(page, ctx);
    if (unit.schema === "bank.transactions.cb.v1") return transactionRecords(page, unit, ctx);
    throw new ProviderFailure("PROVIDER_ERROR", `sandbox.bank does not collect ${unit.schema}`);
  },
};
