import { ProviderFailure, type ProtocolAdapter } from "../adapter";
import { approvalsOfCard, CARD_PURCHASES, cardLookback, cardsOfPurchases } from "../kit/business-card-approvals";
import { businessCardPurchaseRecords } from "./business-card-purchases";
import { cashReceiptRecords } from "./cash-receipts";
import { HOMETAX_HOSTS } from "./hosts";
import { invoiceLineRecords } from "./invoice-lines";
import { DEFAULT_OPTIONS, type HometaxOptions } from "./options";
import { type HometaxDeps, REAL_DEPS } from "./pacing";
import { type HometaxSession, logIn } from "./session";
import { awaitSimpleAuth, requestSimpleAuth } from "./simple-auth";
import { taxInvoiceRecords } from "./tax-invoices";

/**
 * Hometax (홈택스), spoken to over its own HTTP protocol (docs/institutions/hometax.md): certificate, ID or 간편인증
 * (OACX, approved on the person's phone) login on the portal, a token hop to the tax-invoice (teet) and cash-receipt and card (tecr) sites, their JSON list queries.
 */
export function hometaxAdapter(options: HometaxOptions = DEFAULT_OPTIONS, deps: HometaxDeps = REAL_DEPS): ProtocolAdapter<HometaxSession> {
  return {
    kind: "protocol",
    providerCode: "hometax",
    version: "hometax/2026-12-01",
    hosts: HOMETAX_HOSTS,
    login: (http, credential, ctx) => logIn(http, credential, ctx, options, deps),
    requestApproval: (http, credential) => requestSimpleAuth(http, credential, options, deps),
    awaitApproval: (http, pending, waitMs, ctx) => awaitSimpleAuth(http, pending, waitMs, ctx, options, deps),
    // The cards are those of the business-card purchases (business-card-approvals.ts): no public source shows a card list.
    async discoverTargets(session, schema) {
      if (schema !== "card.approvals.corp.v1") return [];
      return cardsOfPurchases(await businessCardPurchaseRecords(session, cardLookback(deps.now()))).map((card) => ({ id: String(card.cardNumberMasked), attributes: {} }));
    },
    async collect(session, unit, ctx) {
      if (unit.schema === "card.cards.corp.v1") return cardsOfPurchases(await businessCardPurchaseRecords(session, cardLookback(deps.now())));
      if (!unit.segment) throw new ProviderFailure("PROVIDER_ERROR", "hometax lists need a period");
      if (unit.schema === "card.approvals.corp.v1") {
        if (!unit.target) throw new ProviderFailure("PROVIDER_ERROR", "card approvals need a card");
        return approvalsOfCard(await businessCardPurchaseRecords(session, unit.segment), unit.target.id);
      }
      if (unit.schema.startsWith("taxportal.tax-invoices.")) return taxInvoiceRecords(session, unit, ctx);
      if (unit.schema.startsWith("taxportal.cash-receipts.")) return cashReceiptRecords(session, unit, ctx);
      if (unit.schema === "taxportal.tax-invoice-lines.v1") return invoiceLineRecords(session, unit);
      if (unit.schema === CARD_PURCHASES) return businessCardPurchaseRecords(session, unit.segment);
      throw new ProviderFailure("PROVIDER_ERROR", `hometax does not collect ${unit.schema}`);
    },
  };
}

export const hometax = hometaxAdapter();

/**
 * Hometax at the pace a deployment of stand-ins asks for (HOMETAX_PACE_MS, collectors/registry.ts): requests `paceMs`
 * apart without jitter, and an overload answer asked again at once. Only tests and the local stack ask, so that
 * they need not wait a second a request: everything else, a stand-in included, keeps the options' pace.
 */
export function hometaxPacedAt(paceMs: number): ProtocolAdapter<HometaxSession> {
  return hometaxAdapter({ ...DEFAULT_OPTIONS, requestIntervalMs: paceMs, requestJitterMs: 0, throttleWaitSeconds: 0 });
}
