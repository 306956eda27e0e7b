import type { Context } from "hono";
import { z } from "@hono/zod-openapi";
import { timestamp, uuid } from "../../platform/http/bounds";
import { type ApiEnv, principalOf } from "../context";
import { ApiError } from "../../platform/errors/api-error";

export const ConnectionSchema = z
  .object({
    id: uuid(),
    businessNumber: z.string().max(10).meta({ description: "사업자등록번호 10자리" }),
    status: z.enum(["ACTIVE", "REVOKED"]),
    createdAt: timestamp(),
    revokedAt: timestamp().nullable(),
  })
  .openapi("Connection");

/** Connections are a partner's; anyone else gets the spec's non-partner code. */
export function partnerWorkspaceOf(c: Context<ApiEnv>): string {
  const principal = principalOf(c);
  if (!principal.isPartner) throw new ApiError("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER");
  return principal.workspaceId;
}
