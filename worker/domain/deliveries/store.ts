import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { type DeliveryRouteKind, deliveryRoutes, routeDeliveries } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { type CursorPosition, type ListPage, pastPosition } from "../../platform/database/cursor";
import { openText, rewrapText, sealText } from "../vault/envelope";
import { pastKey, type RewrapTally, rewrapRows, sealedBefore } from "../vault/rewrap-rows";
import { checkDestination } from "./destination";

export type RouteRow = typeof deliveryRoutes.$inferSelect;
export type DeliveryRow = typeof routeDeliveries.$inferSelect;

const secretBinding = (routeId: string) => ["delivery-route", routeId];

/**
 * Stores a route, its destination checked first (domain/deliveries/destination.ts: a public address only, else 400
 * INVALID_PARAM_FORMAT; `allowLocal` is the local stack's allowance) and its secret sealed, bound to the route.
 */
export async function createRoute(
  d1: D1Database,
  masterKey: string,
  input: { workspaceId: string; name: string; kind: DeliveryRouteKind; config: Record<string, unknown>; secret: string },
  allowLocal: boolean,
  now: number = Date.now(),
): Promise<RouteRow> {
  const config = checkDestination(input.kind, input.config, allowLocal);
  const id = crypto.randomUUID();
  const row: RouteRow = { id, workspaceId: input.workspaceId, name: input.name, kind: input.kind, config, sealedSecret: await sealText(masterKey, secretBinding(id), input.secret), createdAt: now, deletedAt: null };
  await database(d1).insert(deliveryRoutes).values(row);
  return row;
}

export async function openRouteSecret(masterKey: string, route: RouteRow): Promise<string> {
  if (route.sealedSecret === null) throw new Error("the route was deleted: its secret is erased");
  return openText(masterKey, secretBinding(route.id), route.sealedSecret);
}

/**
 * A rotation step over routes' secrets (domain/key-rotation/rewrap.ts): `limit` rows past `after` still sealed under an
 * older master key version, each moved onto the newest on its own (only if unchanged meanwhile). Deleted routes hold none.
 */
export function rewrapRouteSecrets(d1: D1Database, masterSecret: string, after: string | null, limit: number): Promise<RewrapTally> {
  const db = database(d1);
  return rewrapRows(masterSecret, after, limit, {
    stale: async (latest, after, limit) =>
      (await db
        .select({ id: deliveryRoutes.id, sealed: deliveryRoutes.sealedSecret })
        .from(deliveryRoutes)
        .where(and(pastKey(deliveryRoutes.id, after), isNotNull(deliveryRoutes.sealedSecret), sealedBefore(deliveryRoutes.sealedSecret, latest)))
        .orderBy(asc(deliveryRoutes.id))
        .limit(limit)
        .all()) as { id: string; sealed: string }[],
    rewrap: (row) => rewrapText(masterSecret, secretBinding(row.id), row.sealed),
    write: (row, sealed) => db.update(deliveryRoutes).set({ sealedSecret: sealed }).where(and(eq(deliveryRoutes.id, row.id), eq(deliveryRoutes.sealedSecret, row.sealed))),
  });
}

/** The live routes of a workspace, newest first: `limit` + 1 past `after` (platform/http/paging.ts). */
export function listRoutes(d1: D1Database, workspaceId: string, page: ListPage): Promise<RouteRow[]> {
  return database(d1)
    .select()
    .from(deliveryRoutes)
    .where(and(eq(deliveryRoutes.workspaceId, workspaceId), isNull(deliveryRoutes.deletedAt), pastPosition(deliveryRoutes.createdAt, deliveryRoutes.id, page.after)))
    .orderBy(desc(deliveryRoutes.createdAt), desc(deliveryRoutes.id))
    .limit(page.limit + 1);
}

/** A live route of one of `workspaceIds` (a job's own workspace, or the partner acting for it). */
export async function findRoute(d1: D1Database, id: string, workspaceIds: readonly string[]): Promise<RouteRow | null> {
  return (await database(d1).select().from(deliveryRoutes).where(and(eq(deliveryRoutes.id, id), inArray(deliveryRoutes.workspaceId, [...workspaceIds]), isNull(deliveryRoutes.deletedAt))).get()) ?? null;
}

/** A live route by id, whoever's: what a queued delivery goes to. */
export async function findRouteById(d1: D1Database, id: string): Promise<RouteRow | null> {
  return (await database(d1).select().from(deliveryRoutes).where(and(eq(deliveryRoutes.id, id), isNull(deliveryRoutes.deletedAt))).get()) ?? null;
}

/** A route a job or schedule may name: else 400 DELIVERY_ROUTE_NOT_FOUND (the spec's code, a value the request got wrong). */
export async function usableRoute(d1: D1Database, id: string, workspaceIds: readonly string[]): Promise<RouteRow> {
  const route = await findRoute(d1, id, workspaceIds);
  if (!route) throw new ApiError("DELIVERY_ROUTE_NOT_FOUND", { fieldErrors: [{ field: "body.deliveryRouteId", code: "DELIVERY_ROUTE_NOT_FOUND", message: "전달 경로를 찾을 수 없습니다. GET /api/v1/delivery-routes로 확인해 주세요." }] });
  return route;
}

/**
 * Deletes a route for good (its log stays); false when it was not there. Jobs naming it later are refused. Its sealed
 * secret is erased with it: the row keeps where and as whom, for the log, and nothing left to open.
 */
export async function deleteRoute(d1: D1Database, workspaceId: string, id: string, now: number = Date.now()): Promise<boolean> {
  const done = await database(d1)
    .update(deliveryRoutes)
    .set({ deletedAt: now, sealedSecret: null })
    .where(and(eq(deliveryRoutes.id, id), eq(deliveryRoutes.workspaceId, workspaceId), isNull(deliveryRoutes.deletedAt)))
    .returning({ id: deliveryRoutes.id });
  return done.length === 1;
}

/** A job's delivery to a route, once: a second end of the same job (a replay) finds the first. */
export async function insertDelivery(d1: D1Database, routeId: string, jobId: string, now: number = Date.now()): Promise<DeliveryRow | null> {
  const [row] = await database(d1)
    .insert(routeDeliveries)
    .values({ id: crypto.randomUUID(), routeId, jobId, status: "PENDING", attempts: 0, lastError: null, files: null, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function findDelivery(d1: D1Database, id: string): Promise<DeliveryRow | null> {
  return (await database(d1).select().from(routeDeliveries).where(eq(routeDeliveries.id, id)).get()) ?? null;
}

export async function recordTry(d1: D1Database, id: string, outcome: { status: "PENDING" | "SENT" | "FAILED"; error: string | null; files: { name: string; bytes: number }[] | null }, now: number = Date.now()): Promise<void> {
  await database(d1)
    .update(routeDeliveries)
    .set({ status: outcome.status, attempts: sql`${routeDeliveries.attempts} + 1`, lastError: outcome.error?.slice(0, 500) ?? null, files: outcome.files, updatedAt: now })
    .where(eq(routeDeliveries.id, id));
}

/** A route's delivery log, newest first (`limit` + 1 past `after`). */
export function listDeliveries(d1: D1Database, routeId: string, page: { limit: number; after?: CursorPosition }): Promise<DeliveryRow[]> {
  return database(d1)
    .select()
    .from(routeDeliveries)
    .where(and(eq(routeDeliveries.routeId, routeId), pastPosition(routeDeliveries.createdAt, routeDeliveries.id, page.after)))
    .orderBy(desc(routeDeliveries.createdAt), desc(routeDeliveries.id))
    .limit(page.limit + 1);
}

/**
 * Pending deliveries nobody tried for `idleMs` (longer than any backoff): their queue message was lost. Each is
 * claimed by moving its `updated_at`, so two sweeps never send one twice. Returns the claimed ids.
 */
export async function claimStalledDeliveries(d1: D1Database, idleMs: number, now: number = Date.now(), limit = 100): Promise<string[]> {
  const stalled = await database(d1)
    .select({ id: routeDeliveries.id, updatedAt: routeDeliveries.updatedAt })
    .from(routeDeliveries)
    .where(and(eq(routeDeliveries.status, "PENDING"), lt(routeDeliveries.updatedAt, now - idleMs)))
    .limit(limit);
  const claimed: string[] = [];
  for (const row of stalled) {
    const done = await database(d1)
      .update(routeDeliveries)
      .set({ updatedAt: now })
      .where(and(eq(routeDeliveries.id, row.id), eq(routeDeliveries.updatedAt, row.updatedAt)))
      .returning({ id: routeDeliveries.id });
    if (done.length) claimed.push(row.id);
  }
  return claimed;
}
