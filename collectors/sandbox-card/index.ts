import type { BrowserAdapter } from "../adapter";
import { ProviderFailure } from "../adapter";
import { approvalRecords } from "./approvals";
import { cardRecords, cardTargets } from "./cards";
import { login } from "./login";

/** The sandbox card issuer (`sandbox.card`): corporate cards and their approval history. */
export const sandboxCard: BrowserAdapter = {
  kind: "browser",
  providerCode: "sandbox.card",
  version: "sandbox-card/2026-11-26",
  login,
  async discoverTargets(page, schema, ctx) {
    return schema === "card.approvals.corp.v1" ? cardTargets(page, ctx) : [];
  },
  async collect(page, unit, ctx) {
    if (unit.schema === "card.cards.corp.v1") return cardRecords(page, ctx);
    if (unit.schema === "card.approvals.corp.v1") return approvalRecords(page, unit, ctx);
    throw new ProviderFailure("PROVIDER_ERROR", `sandbox.card does not collect ${unit.schema}`);
  },
};
