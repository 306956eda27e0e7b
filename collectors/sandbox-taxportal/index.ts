import type { BrowserAdapter } from "../adapter";
import { documentRecords } from "./documents";
import { login } from "./login";

/** The sandbox tax portal (`sandbox.taxportal`): tax invoices and cash receipts, sales and purchase; invoice lines and business-card purchases. */
export const sandboxTaxPortal: BrowserAdapter = {
  kind: "browser",
  providerCode: "sandbox.taxportal",
  version: "sandbox-taxportal/2026-11-26",
  login,
  async discoverTargets() {
    return [];
  },
  collect: documentRecords,
};
