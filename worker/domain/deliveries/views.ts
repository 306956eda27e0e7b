import { S3ConfigSchema, SftpConfigSchema } from "./config";
import type { DeliveryRow, RouteRow } from "./store";
import { isoTime } from "../../platform/lib/iso-time";

/** A route as the API shows it: where and as whom, never its secret. */
export const routeView = (r: RouteRow) => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  ...(r.kind === "S3" ? { s3: S3ConfigSchema.parse(r.config) } : { sftp: SftpConfigSchema.parse(r.config) }),
  createdAt: isoTime(r.createdAt),
});

export const deliveryView = (d: DeliveryRow) => ({
  id: d.id,
  jobId: d.jobId,
  status: d.status,
  attempts: d.attempts,
  lastError: d.lastError,
  files: d.files,
  createdAt: isoTime(d.createdAt),
  updatedAt: isoTime(d.updatedAt),
});
