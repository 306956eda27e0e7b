import type { ProviderAdapter } from "./adapter";
import { sandboxBank } from "./sandbox-bank";

const ADAPTERS = new Map<string, ProviderAdapter>([[sandboxBank.providerCode, sandboxBank]]);

export function adapterFor(providerCode: string): ProviderAdapter | undefined {
  return ADAPTERS.get(providerCode);
}
