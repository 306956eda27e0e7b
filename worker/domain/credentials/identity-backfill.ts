import { storedCertificateFace } from "../certificates/verify";
import { openCredential } from "../vault/envelope";
import { certificateIdentity, credentialIdentity } from "./identity";
import { isIdentityConflict } from "./store";

/** Rows one cron run gives an identity; a backlog drains over the next runs. */
export const IDENTITY_BACKFILL_BATCH = 200;

interface PendingRow {
  id: string;
  workspaceId: string;
  providerCode: string;
  sealed: string | null;
  certificate: string | null;
}

/**
 * A row's identity, from its certificate's face or from its secret (a login's id; a certificate registered
 * before faces were kept, whose face is read from the file too). A row whose secret is gone (erased when the
 * institution refused it) or unreadable gets a placeholder of its own: nobody can register that secret again.
 */
async function identityOf(row: PendingRow, masterSecret: string): Promise<{ identity: string; certificate?: string }> {
  if (row.certificate) return { identity: certificateIdentity(JSON.parse(row.certificate)) };
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
  const { results } = await d1
    .prepare("SELECT id, workspace_id AS workspaceId, provider_code AS providerCode, sealed, certificate FROM credentials WHERE identity IS NULL AND status <> 'DELETED' LIMIT ?")
    .bind(limit)
    .all<PendingRow>();
  for (const row of results) {
    const { identity, certificate } = await identityOf(row, masterSecret);
    const write = (value: string) =>
      d1.prepare("UPDATE credentials SET identity = ?, certificate = coalesce(certificate, ?) WHERE id = ? AND identity IS NULL").bind(value, certificate ?? null, row.id).run();
    await write(identity).catch(async (err: unknown) => {
      if (!isIdentityConflict(err)) throw err;
      await write(`${identity}@${row.providerCode}`);
    });
  }
  return results.length;
}
