import { z } from "@hono/zod-openapi";
import { code } from "../platform/http/bounds";
import { findProvider, type ProviderDefinition } from "../domain/catalog/providers";
import { ApiError } from "../platform/errors/api-error";

export const ProviderCodeParamSchema = z.object({
  code: code().meta({ param: { name: "code", in: "path" }, example: "sandbox.bank" }),
});

export function providerOrThrow(code: string): ProviderDefinition {
  const provider = findProvider(code);
  if (!provider) throw new ApiError("INVALID_PROVIDER_CODE", { fieldErrors: [{ field: "path.code", code: "INVALID_PROVIDER_CODE", message: "알 수 없는 기관 코드입니다." }] });
  return provider;
}
