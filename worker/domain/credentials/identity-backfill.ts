import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { type CertificateFace, storedCertificateFace } from "../certificates/verify";
import { database } from "../../platform/database/client";
import { openCredential } from "../vault/envelope";
import { certificateIdentity, credentialIdentity } from "./identity";
import { isIdentityConflict } from "./replace";
import { credentials } from "./tables";

/** Rows one cron run gives an identity; a backlog drains over the next runs. */
export const IDENTITY_BACKFILL_BATCH = 200;

interface PendingRow {
  id: string;
  workspaceId: string;
  providerCode: string;
  sealed: string | null;
  certificate: CertificateFace | null;
}

/**
 * A row's identity, from its certificate's face or from its secret (a login's id; a certificate registered
 * before faces were kept, whose face is read from the file too). A row whose secret is gone (erased when the
 * institution refused it) or unreadable gets a placeholder of its own: nobody can register that secret again.
 */
async function identityOf(row: PendingRow, masterSecret: string): Promise<{ identity: string; certificate?: string }> {
  if (row.certificate) return { identity: certificateIdentity(row.certificate) };
  const opened = row.sealed && (await openCredential(masterSecret, { credentialId: row.id, workspaceId: row.workspaceId, providerCode: row.providerCode }, row.sealed).catch(() => null));
  if (!opened) return { identity: `unknown:${row.id}` };
  if (opened.authMethod !== "CERTIFICATE") return { identity: await credentialIdentity(row.providerCode, opened, null) };
  const face = storedCertificateFace(opened.certificate);
  return face ? { identity: await credentialIdentity(row.providerCode, opened, face), certificate: JSON.stringify(face) } : { identity: `unknown:${row.id}` };
}

/**
 * Gives credentials registered before identities existed theirs (the credentials table's `identity`), up to
 * `limit` rows a call, each written on its own so a run cut short loses nothing. Registrations in a workspace
 * wait for it (409 CREDENTIAL_CERTIFICATE_SERIAL_BACKFILL_IN_PROGRESS). The same certificate held live for two
 * providers from before gets, on the second row, an identity marked with its provider, so both stay usable.
 * Returns how many rows it wrote.
 */
export async function backfillIdentities(d1: D1Database, masterSecret: string, limit = IDENTITY_BACKFILL_BATCH): Promise<number> {
  const db = database(d1);
  const results: PendingRow[] = await db
    .select({ id: credentials.id, workspaceId: credentials.workspaceId, providerCode: credentials.providerCode, sealed: credentials.sealed, certificate: credentials.certificate })
    .from(credentials)
    .where(and(isNull(credentials.identity), ne(credentials.status, "DELETED")))
    .limit(limit)
    .all();
  for (const row of results) {
    const { identity, certificate } = await identityOf(row, masterSecret);
    const write = (value: string) =>
      db
        .update(credentials)
        .set({ identity: value, certificate: sql`coalesce(${credentials.certificate}, ${certificate ?? null})` })
        .where(and(eq(credentials.id, row.id), isNull(credentials.identity)));
    await write(identity).catch(async (err: unknown) => {
      // drizzle wraps D1's error, whose text names the index, as its `cause`.
      if (!isIdentityConflict((err as { cause?: unknown }).cause ?? err)) throw err;
      await write(`${identity}@${row.providerCode}`);
    });
  }
  return results.length;
}
