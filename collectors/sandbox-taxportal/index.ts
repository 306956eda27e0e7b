import type { BrowserAdapter } from "../adapter";
import { documentRecords } from "./documents";
import { login } from "./login";

/** The sandbox tax portal (`sandbox.taxportal`): tax invoices and cash receipts, sales and purchase. */
export const sandboxTaxPortal: BrowserAdapter = {
  kind: "browser",
  providerCode: "sandbox.taxportal",
  login,
  async discoverTargets() {
    return [];
  },
  collect: documentRecords,
};
