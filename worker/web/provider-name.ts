import { findProvider } from "../domain/catalog/providers";
import { GLOBAL_PROVIDER } from "../domain/credentials/identity";

/** How the console names the provider a credential logs in at: a global certificate serves every one taking certificates. */
export function providerName(providerCode: string): string {
  return providerCode === GLOBAL_PROVIDER ? "인증서를 받는 모든 기관" : (findProvider(providerCode)?.name ?? providerCode);
}
