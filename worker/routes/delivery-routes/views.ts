import type { DeliveryRow, RouteRow } from "../../deliveries/store";
import { isoTime } from "../../lib/iso-time";

/** A route as the API shows it: where and as whom, never its secret. */
export const routeView = (r: RouteRow) => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  ...(r.kind === "S3" ? { s3: r.config as never } : { sftp: r.config as never }),
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
