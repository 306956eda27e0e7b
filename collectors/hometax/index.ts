import { ProviderFailure, type ProtocolAdapter } from "../adapter";
import { cashReceiptRecords } from "./cash-receipts";
import { HOMETAX_HOSTS } from "./hosts";
import { DEFAULT_OPTIONS, type HometaxOptions } from "./options";
import { type HometaxSession, logIn } from "./session";
import { taxInvoiceRecords } from "./tax-invoices";

/**
 * Hometax (홈택스), spoken to over its own HTTP protocol (docs/institutions/hometax.md): certificate or ID login
 * on the portal, a token hop to the tax-invoice (teet) and cash-receipt (tecr) sites, their JSON list queries.
 */
export function hometaxAdapter(options: HometaxOptions = DEFAULT_OPTIONS): ProtocolAdapter<HometaxSession> {
  return {
    kind: "protocol",
    providerCode: "hometax",
    version: "hometax/2026-11-26",
    hosts: HOMETAX_HOSTS,
    login: (http, credential, ctx) => logIn(http, credential, ctx, options),
    async discoverTargets() {
      return [];
    },
    async collect(session, unit, ctx) {
      if (!unit.segment) throw new ProviderFailure("PROVIDER_ERROR", "hometax lists need a period");
      if (unit.schema.startsWith("taxportal.tax-invoices.")) return taxInvoiceRecords(session, unit, ctx);
      if (unit.schema.startsWith("taxportal.cash-receipts.")) return cashReceiptRecords(session, unit, ctx);
      throw new ProviderFailure("PROVIDER_ERROR", `hometax does not collect ${unit.schema}`);
    },
  };
}

export const hometax = hometaxAdapter();
