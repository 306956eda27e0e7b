import { z } from "@hono/zod-openapi";
import { ROUTE_SECRET_MAX, S3ConfigSchema, SftpConfigSchema } from "./config";
import { MAX } from "../../platform/http/bounds";

const name = z.string().trim().min(1).max(MAX.name);

export const CreateDeliveryRouteBodySchema = z
  .discriminatedUnion("kind", [
    z.object({
      kind: z.literal("S3"),
      name,
      s3: S3ConfigSchema,
      secretAccessKey: z.string().min(1).max(ROUTE_SECRET_MAX).meta({ description: "한 번만 받고 봉인해 다시 보여 주지 않습니다" }),
    }),
    z.object({
      kind: z.literal("SFTP"),
      name,
      sftp: SftpConfigSchema,
      secret: z.string().min(1).max(ROUTE_SECRET_MAX).meta({ description: "비밀번호, 또는 개인 키 (OpenSSH나 PEM). 한 번만 받고 봉인해 다시 보여 주지 않습니다" }),
    }),
  ])
  .openapi("CreateDeliveryRouteRequest");

/** A create request as the store keeps it: the destination as the route's config, the secret to be sealed. */
export function routeInput(body: z.infer<typeof CreateDeliveryRouteBodySchema>) {
  const [config, secret] = body.kind === "S3" ? [body.s3, body.secretAccessKey] : [body.sftp, body.secret];
  return { name: body.name, kind: body.kind, config, secret };
}
