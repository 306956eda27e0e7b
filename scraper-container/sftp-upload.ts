import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import path from "node:path/posix";
import { pipeline } from "node:stream/promises";
import ssh2, { type Client, type SFTPWrapper } from "ssh2";
import { SFTP_UPLOAD_HEADER, type SftpUpload } from "../contracts/scraper-protocol";
import { HttpFailure } from "./http-io";

// A partner's server that does not answer within this is down: the worker retries the delivery later.
const CONNECT_TIMEOUT_MS = 15_000;

function uploadOf(req: IncomingMessage): SftpUpload {
  try {
    const upload = JSON.parse(Buffer.from(String(req.headers[SFTP_UPLOAD_HEADER.toLowerCase()] ?? ""), "base64url").toString("utf8")) as SftpUpload;
    if (typeof upload.host === "string" && typeof upload.name === "string" && /^[\w.-]+$/.test(upload.name)) return upload;
  } catch {
    // refused below
  }
  throw new HttpFailure(400, "INTERNAL_ERROR");
}

const connected = (upload: SftpUpload) =>
  new Promise<{ client: Client; sftp: SFTPWrapper }>((resolve, reject) => {
    const client = new ssh2.Client();
    const key = upload.secret.startsWith("-----BEGIN") ? { privateKey: upload.secret } : { password: upload.secret };
    client
      .on("ready", () => client.sftp((err, sftp) => (err ? reject(err) : resolve({ client, sftp }))))
      .on("error", reject)
      .connect({
        host: upload.host,
        port: upload.port,
        username: upload.username,
        ...key,
        readyTimeout: CONNECT_TIMEOUT_MS,
        // Only the server the partner named by its key's fingerprint: a server in its place gets nothing.
        hostVerifier: (hostKey: Buffer) => createHash("sha256").update(hostKey).digest("base64").replace(/=+$/, "") === upload.hostKeySha256.replace(/=+$/, ""),
      });
  });

async function makeDirectories(sftp: SFTPWrapper, directory: string): Promise<void> {
  let at = directory.startsWith("/") ? "/" : "";
  for (const part of directory.split("/").filter(Boolean)) {
    at = at ? path.join(at, part) : part;
    await new Promise<void>((resolve) => sftp.mkdir(at, () => resolve()));
  }
}

/**
 * Writes the request's body to the partner's SFTP server: into `<name>.part`, renamed to `<name>` once whole, so a
 * reader never sees half a file. Answers the bytes written.
 */
export async function uploadSftp(req: IncomingMessage): Promise<{ bytes: number }> {
  const upload = uploadOf(req);
  let session: { client: Client; sftp: SFTPWrapper };
  try {
    session = await connected(upload);
  } catch (err) {
    throw new HttpFailure(502, "PROVIDER_ERROR", undefined, `SFTP ${upload.host}:${upload.port}: ${(err as Error).message}`);
  }
  const { client, sftp } = session;
  try {
    await makeDirectories(sftp, upload.directory);
    const target = path.join(upload.directory || ".", upload.name);
    let bytes = 0;
    req.on("data", (chunk: Buffer) => void (bytes += chunk.length));
    await pipeline(req, sftp.createWriteStream(`${target}.part`));
    await new Promise<void>((resolve) => sftp.unlink(target, () => resolve()));
    await new Promise<void>((resolve, reject) => sftp.rename(`${target}.part`, target, (err) => (err ? reject(err) : resolve())));
    return { bytes };
  } catch (err) {
    if (err instanceof HttpFailure) throw err;
    throw new HttpFailure(502, "PROVIDER_ERROR", undefined, `SFTP ${upload.host}: ${(err as Error).message}`);
  } finally {
    client.end();
  }
}
