import { and, asc, desc, eq, or, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { webhookDeliveries, webhookEndpoints } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { type CursorPosition, pastPosition } from "../../platform/database/cursor";
import type { WebhookEventType } from "../../../contracts/webhooks";
import { pastKey, type RewrapTally, rewrapRows, sealedBefore } from "../vault/rewrap-rows";
import { recipientsSql } from "../workspaces/recipients";
import { newSigningSecret, rewrapSigningSecret, ROTATION_OVERLAP_MS, sealSigningSecret } from "./secrets";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** Another workspace's endpoint is as unknown as one that never existed. */
const endpointNotFound = () => new ApiError("RESOURCE_NOT_FOUND", { message: "웹훅 엔드포인트를 찾을 수 없습니다. id를 확인해 주세요." });

export interface EndpointInput {
  url: string;
  events: WebhookEventType[];
  description: string | null;
}

/** Creates an endpoint with a fresh signing secret, returned here once and stored only sealed. */
export async function createEndpoint(d1: D1Database, masterKey: string, workspaceId: string, input: EndpointInput): Promise<{ row: EndpointRow; secret: string }> {
  const now = Date.now();
  const id = crypto.randomUUID();
  const secret = newSigningSecret();
  const row: EndpointRow = {
    id,
    workspaceId,
    url: input.url,
    description: input.description,
    events: input.events,
    sealedSecret: await sealSigningSecret(masterKey, { id, workspaceId }, secret),
    previousSealedSecret: null,
    previousSecretExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await database(d1).insert(webhookEndpoints).values(row);
  return { row, secret };
}

/** A page of the workspace's endpoints, newest first; one more than `limit` tells there is a next page. */
export function listEndpoints(d1: D1Database, workspaceId: string, limit: number, after?: CursorPosition): Promise<EndpointRow[]> {
  return database(d1)
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.workspaceId, workspaceId), pastPosition(webhookEndpoints.createdAt, webhookEndpoints.id, after)))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
    .limit(limit + 1)
    .all();
}

export async function findEndpoint(d1: D1Database, workspaceId: string, id: string): Promise<EndpointRow> {
  const row = await database(d1).select().from(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId))).get();
  if (!row) throw endpointNotFound();
  return row;
}

/** The endpoint a delivery goes to, whatever its workspace (the delivery names it). */
export async function endpointById(d1: D1Database, id: string): Promise<EndpointRow | null> {
  return (await database(d1).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get()) ?? null;
}

export async function updateEndpoint(d1: D1Database, workspaceId: string, id: string, patch: Partial<EndpointInput>): Promise<EndpointRow> {
  const [row] = await database(d1)
    .update(webhookEndpoints)
    .set({ ...patch, updatedAt: Date.now() })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId)))
    .returning();
  if (!row) throw endpointNotFound();
  return row;
}

/** Deletes the endpoint and its delivery log; queued attempts then find nothing to send. */
export async function deleteEndpoint(d1: D1Database, workspaceId: string, id: string): Promise<void> {
  const db = database(d1);
  const [deleted] = await db.batch([
    db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId))).returning({ id: webhookEndpoints.id }),
    db.delete(webhookDeliveries).where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.workspaceId, workspaceId))),
  ]);
  if (deleted.length === 0) throw endpointNotFound();
}

/**
 * Gives the endpoint a new secret, returned here once. The one it replaces
 * keeps signing beside it for ROTATION_OVERLAP_MS; a second rotation within
 * that time drops the oldest.
 */
export async function rotateSecret(d1: D1Database, masterKey: string, workspaceId: string, id: string): Promise<{ row: EndpointRow; secret: string }> {
  const current = await findEndpoint(d1, workspaceId, id);
  const now = Date.now();
  const secret = newSigningSecret();
  const [row] = await database(d1)
    .update(webhookEndpoints)
    .set({
      sealedSecret: await sealSigningSecret(masterKey, current, secret),
      previousSealedSecret: current.sealedSecret,
      previousSecretExpiresAt: now + ROTATION_OVERLAP_MS,
      updatedAt: now,
    })
    // Only over the secret read above: two rotations at once must not both keep an older secret alive.
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.sealedSecret, current.sealedSecret)))
    .returning();
  if (!row) return rotateSecret(d1, masterKey, workspaceId, id);
  return { row, secret };
}

/** Who hears of an event: an endpoint's id and the workspace it belongs to. */
export type Subscriber = Pick<EndpointRow, "id" | "workspaceId">;

const SUBSCRIBER_COLUMNS = "id, workspace_id AS workspaceId";
/** SQL for: the endpoint subscribed to the event type bound at `parameter`. */
const subscribedTo = (parameter: string) => `EXISTS (SELECT 1 FROM json_each(events) WHERE value = ${parameter})`;

/** The endpoints of these workspaces that subscribed to `type`. */
export async function subscribedEndpoints(d1: D1Database, workspaceIds: string[], type: WebhookEventType): Promise<Subscriber[]> {
  // Raw while create-context.test.ts counts endpoint reads by the text "FROM webhook_endpoints" (drizzle writes `from "webhook_endpoints"`).
  const rows = await d1
    .prepare(`SELECT ${SUBSCRIBER_COLUMNS} FROM webhook_endpoints WHERE workspace_id IN (${workspaceIds.map(() => "?").join(", ")}) AND ${subscribedTo("?")}`)
    .bind(...workspaceIds, type)
    .all<Subscriber>();
  return rows.results;
}

/**
 * As `subscribedEndpoints` for a workspace's events (its own endpoints and its billing workspace's, as
 * `recipientsOf`), as a statement for a caller to batch before it knows the billing workspace.
 */
export function workspaceSubscribersStatement(d1: D1Database, workspaceId: string, type: WebhookEventType): D1PreparedStatement {
  // Raw: create-context.ts batches it with credentials' raw statement in one round trip, and its test counts reads by this text.
  return d1
    .prepare(
      `SELECT ${SUBSCRIBER_COLUMNS} FROM webhook_endpoints
       WHERE workspace_id IN (${recipientsSql("?1")}) AND ${subscribedTo("?2")}`,
    )
    .bind(workspaceId, type);
}

/** A rotation step over endpoints' signing secrets (domain/key-rotation/rewrap.ts), past `after`: the current one and a rotation's previous one. */
export function rewrapEndpointSecrets(d1: D1Database, masterSecret: string, after: string | null, limit: number): Promise<RewrapTally> {
  const db = database(d1);
  const e = webhookEndpoints;
  return rewrapRows(masterSecret, after, limit, {
    stale: (latest, after, limit) =>
      db
        .select({ id: e.id, workspaceId: e.workspaceId, sealedSecret: e.sealedSecret, previousSealedSecret: e.previousSealedSecret })
        .from(e)
        .where(and(pastKey(e.id, after), or(sealedBefore(e.sealedSecret, latest), sealedBefore(e.previousSealedSecret, latest))))
        .orderBy(asc(e.id))
        .limit(limit)
        .all(),
    // Either secret unreadable leaves the row whole: both move together or neither does.
    rewrap: async (row) => {
      const rewrap = (sealed: string | null) => (sealed ? rewrapSigningSecret(masterSecret, row, sealed) : Promise.resolve(null));
      const [current, previous] = await Promise.all([rewrap(row.sealedSecret), rewrap(row.previousSealedSecret)]);
      return current === null && previous === null ? null : { sealedSecret: current ?? row.sealedSecret, previousSealedSecret: previous ?? row.previousSealedSecret };
    },
    write: (row, next) =>
      db.update(e).set(next).where(and(eq(e.id, row.id), eq(e.sealedSecret, row.sealedSecret), sql`${e.previousSealedSecret} IS ${row.previousSealedSecret}`)),
  });
}
