import { z } from "@hono/zod-openapi";
import { S3ConfigSchema, SftpConfigSchema } from "../../domain/deliveries/config";
import { ROUTE_SECRET_MAX } from "../../domain/deliveries/config";
import { count, MAX, pathId, timestamp, uuid } from "../../platform/http/bounds";

export const RouteIdParamSchema = z.object({ id: pathId().meta({ param: { name: "id", in: "path" } }) });

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

export const DeliveryRouteSchema = z
  .object({
    id: uuid(),
    name: z.string().max(MAX.name),
    kind: z.enum(["S3", "SFTP"]),
    s3: S3ConfigSchema.optional(),
    sftp: SftpConfigSchema.optional(),
    createdAt: timestamp(),
  })
  .openapi("DeliveryRoute");

export const RouteDeliverySchema = z
  .object({
    id: uuid(),
    jobId: uuid(),
    status: z.enum(["PENDING", "SENT", "FAILED"]).meta({ description: "PENDING: 보내는 중(실패하면 다시 시도), SENT: 모두 도착, FAILED: 시도를 다 썼거나 경로가 지워짐" }),
    attempts: count(),
    lastError: z.string().max(500).nullable(),
    files: z.array(z.object({ name: z.string().max(MAX.name), bytes: count() })).max(10).nullable(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  })
  .openapi("RouteDelivery");
