import { createHash } from "node:crypto";
import { lookup } from "node:dns/promises";
import type { IncomingMessage } from "node:http";
import path from "node:path/posix";
import { pipeline } from "node:stream/promises";
import ssh2, { type Client, type SFTPWrapper } from "ssh2";
import { addressProblem, hostProblem, isLoopbackAddress, LOOPBACK_HOSTS } from "../contracts/public-address";
import { SFTP_UPLOAD_HEADER, type SftpUpload } from "../contracts/scraper-protocol";
import { HttpFailure } from "./http-io";

export interface SftpOptions {
  /** The local stack's and the tests' allowance (SFTP_ALLOW_LOCAL_HOSTS=1): 127.0.0.1 and ::1 may be reached, nothing else private. Never in production. */
  allowLocalHosts?: boolean;
  /** Resolves a name to every address it has; `dns.lookup` unless a test stands in for DNS. */
  resolve?: (host: string) => Promise<string[]>;
}

const resolveAll = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The one address to connect to, after the rules every customer-named destination follows (contracts/public-address.ts):
 * the name must be a public one, and every address it resolves to public (one private answer among public ones is
 * enough to refuse: a name that can turn inward is not trusted). The connection goes to the address checked here, not
 * to the name, so a second answer from DNS (rebinding) cannot send it elsewhere. Refusals name the rule, never an answer.
 */
async function checkedAddress(host: string, options: SftpOptions): Promise<string> {
  const local = options.allowLocalHosts === true && LOOPBACK_HOSTS.has(host);
  const nameProblem = local ? null : hostProblem(host);
  if (nameProblem) throw refused(nameProblem);
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? resolveAll)(host);
  } catch {
    throw new HttpFailure(502, "PROVIDER_ERROR", undefined, "SFTP: the server's name does not resolve");
  }
  if (addresses.length === 0) throw new HttpFailure(502, "PROVIDER_ERROR", undefined, "SFTP: the server's name does not resolve");
  for (const address of addresses) {
    if (options.allowLocalHosts && isLoopbackAddress(address)) continue;
    const problem = addressProblem(address);
    if (problem) throw refused(problem);
  }
  return addresses[0]!;
}

const refused = (problem: string) => new HttpFailure(400, "PROVIDER_ERROR", undefined, `refused: SFTP 서버(host)로 보낼 수 없습니다. ${problem}`);

/**
 * What the route's log may say of a failed connection: a kind, never the server's or the network's own words (a banner,
 * an address, an internal error text). The partner's server is public, but its answers are still not ours to repeat.
 */
function connectionFailure(err: unknown): string {
  const { code, level, message } = (err ?? {}) as { code?: string; level?: string; message?: string };
  if (level === "client-authentication") return "SFTP: the server refused the username and secret";
  if (/host denied/i.test(String(message))) return "SFTP: the server's host key is not the one named (hostKeySha256)";
  if (level === "client-timeout" || code === "ETIMEDOUT" || /timed out/i.test(String(message))) return "SFTP: the server did not answer in time";
  if (code === "ECONNREFUSED") return "SFTP: the server refused the connection";
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "SFTP: the server cannot be reached";
  return "SFTP: the connection failed";
}

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

const connected = (upload: SftpUpload, address: string) =>
  new Promise<{ client: Client; sftp: SFTPWrapper }>((resolve, reject) => {
    const client = new ssh2.Client();
    const key = upload.secret.startsWith("-----BEGIN") ? { privateKey: upload.secret } : { password: upload.secret };
    client
      .on("ready", () => client.sftp((err, sftp) => (err ? reject(err) : resolve({ client, sftp }))))
      // A connection that failed (refused key, wrong secret, not SSH at all) is closed, not left open on its socket.
      .on("error", (err) => {
        client.destroy();
        reject(err);
      })
      .connect({
        host: address,
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
export async function uploadSftp(req: IncomingMessage, options: SftpOptions = {}): Promise<{ bytes: number }> {
  const upload = uploadOf(req);
  const address = await checkedAddress(upload.host, options);
  let session: { client: Client; sftp: SFTPWrapper };
  try {
    session = await connected(upload, address);
  } catch (err) {
    throw new HttpFailure(502, "PROVIDER_ERROR", undefined, connectionFailure(err));
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
    const status = (err as { code?: unknown })?.code;
    throw new HttpFailure(502, "PROVIDER_ERROR", undefined, `SFTP: writing failed${typeof status === "number" ? ` (status ${status})` : ""}`);
  } finally {
    client.end();
  }
}
