import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "../workspaces/tables";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

export const DELIVERY_ROUTE_KINDS = ["S3", "SFTP"] as const;
export type DeliveryRouteKind = (typeof DELIVERY_ROUTE_KINDS)[number];

/** Where a workspace's succeeded jobs' results are delivered (worker/domain/deliveries/): an S3-compatible bucket or an SFTP server. */
export const deliveryRoutes = sqliteTable(
  "delivery_routes",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    name: text("name").notNull(),
    kind: text("kind", { enum: DELIVERY_ROUTE_KINDS }).notNull(),
    /** Where and as whom, without the secret (domain/deliveries/config.ts). */
    config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** The S3 secret access key or the SFTP password or private key, sealed by the vault and bound to the route; erased (null) when the route is deleted. */
    sealedSecret: text("sealed_secret"),
    createdAt: integer("created_at").notNull(),
    deletedAt: integer("deleted_at"),
  },
  (t) => [index("delivery_routes_workspace").on(t.workspaceId, t.createdAt, t.id)],
);

export const ROUTE_DELIVERY_STATUSES = ["PENDING", "SENT", "FAILED"] as const;

/** One job's results to one route, with its tries: the route's delivery log. */
export const routeDeliveries = sqliteTable(
  "route_deliveries",
  {
    id: text("id").primaryKey(),
    routeId: text("route_id").notNull(),
    jobId: text("job_id").notNull(),
    status: text("status", { enum: ROUTE_DELIVERY_STATUSES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** Why the last try failed, truncated; null once sent. */
    lastError: text("last_error"),
    /** What landed: each file's name and size in bytes, once sent. */
    files: text("files", { mode: "json" }).$type<{ name: string; bytes: number }[]>(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("route_deliveries_one_per_job").on(t.routeId, t.jobId), index("route_deliveries_route").on(t.routeId, t.createdAt, t.id)],
);
