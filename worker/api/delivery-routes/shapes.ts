import { z } from "@hono/zod-openapi";
import { S3ConfigSchema, SftpConfigSchema } from "../../domain/deliveries/config";
import { count, MAX, pathId, timestamp, uuid } from "../../platform/http/bounds";

export const RouteIdParamSchema = z.object({ id: pathId().meta({ param: { name: "id", in: "path" } }) });

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
