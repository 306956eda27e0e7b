import type { ProviderAdapter } from "./adapter";
import { sandboxBank } from "./sandbox-bank";
import { sandboxTaxPortal } from "./sandbox-taxportal";

const ADAPTERS = new Map<string, ProviderAdapter>([sandboxBank, sandboxTaxPortal].map((adapter) => [adapter.providerCode, adapter]));

export function adapterFor(providerCode: string): ProviderAdapter | undefined {
  return ADAPTERS.get(providerCode);
}
