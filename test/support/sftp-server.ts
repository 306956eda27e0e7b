import { createHash, timingSafeEqual } from "node:crypto";
import { createServer as createHttpServer } from "node:http";
import path from "node:path/posix";
import ssh2 from "ssh2";

// ssh2 is CommonJS: its parts come off the default export.
const { Server, utils } = ssh2;
const { STATUS_CODE, OPEN_MODE } = utils.sftp;

/**
 * A real SFTP server for the delivery tests (ssh2's server, a library of others): one user with a password, files
 * kept in memory under their paths, and an HTTP side (`GET /files/<path>`) for tests in the Workers runtime, which
 * cannot speak SSH, to read what landed. It does what a delivery needs: mkdir, open for writing, write, close,
 * remove, rename, stat.
 */
export async function startSftpServer(options: { port: number; httpPort: number; hostKey: string; username: string; password: string }) {
  const files = new Map<string, Buffer>();
  const directories = new Set<string>(["/"]);
  const resolve = (p: string) => path.resolve("/", p);
  const allowed = (given: string, expected: string) => given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));

  const server = new Server({ hostKeys: [options.hostKey] }, (client) => {
    client
      .on("authentication", (ctx) => {
        if (ctx.method === "password" && ctx.username === options.username && allowed(ctx.password, options.password)) ctx.accept();
        else ctx.reject(["password"]);
      })
      .on("ready", () => {
        client.on("session", (accept) => {
          accept().on("sftp", (acceptSftp) => {
            const sftp = acceptSftp();
            const open = new Map<number, { path: string; chunks: Buffer[] }>();
            let nextHandle = 0;
            const handleOf = (buffer: Buffer) => open.get(buffer.readUInt32BE(0));
            sftp
              .on("OPEN", (id, filename, flags) => {
                if (!(flags & OPEN_MODE.WRITE) || !directories.has(path.dirname(resolve(filename)))) return sftp.status(id, STATUS_CODE.FAILURE);
                const handle = Buffer.alloc(4);
                handle.writeUInt32BE(nextHandle);
                open.set(nextHandle++, { path: resolve(filename), chunks: [] });
                sftp.handle(id, handle);
              })
              .on("WRITE", (id, handle, offset, data) => {
                const file = handleOf(handle);
                if (!file) return sftp.status(id, STATUS_CODE.FAILURE);
                file.chunks.push(Buffer.from(data));
                sftp.status(id, STATUS_CODE.OK);
              })
              .on("CLOSE", (id, handle) => {
                const file = handleOf(handle);
                if (file) files.set(file.path, Buffer.concat(file.chunks));
                open.delete(handle.readUInt32BE(0));
                sftp.status(id, STATUS_CODE.OK);
              })
              .on("MKDIR", (id, dir) => {
                const at = resolve(dir);
                if (directories.has(at) || !directories.has(path.dirname(at))) return sftp.status(id, STATUS_CODE.FAILURE);
                directories.add(at);
                sftp.status(id, STATUS_CODE.OK);
              })
              .on("REMOVE", (id, filename) => sftp.status(id, files.delete(resolve(filename)) ? STATUS_CODE.OK : STATUS_CODE.NO_SUCH_FILE))
              .on("RENAME", (id, from, to) => {
                const body = files.get(resolve(from));
                if (!body) return sftp.status(id, STATUS_CODE.NO_SUCH_FILE);
                files.delete(resolve(from));
                files.set(resolve(to), body);
                sftp.status(id, STATUS_CODE.OK);
              })
              .on("REALPATH", (id, p) => sftp.name(id, [{ filename: resolve(p), longname: resolve(p), attrs: {} as never }]))
              .on("STAT", (id, p) => (directories.has(resolve(p)) || files.has(resolve(p)) ? sftp.attrs(id, { mode: directories.has(resolve(p)) ? 0o40755 : 0o100644, uid: 0, gid: 0, size: files.get(resolve(p))?.length ?? 0, atime: 0, mtime: 0 }) : sftp.status(id, STATUS_CODE.NO_SUCH_FILE)));
          });
        });
      })
      .on("error", () => undefined);
  });
  await new Promise<void>((ready) => server.listen(options.port, "127.0.0.1", ready));

  const http = createHttpServer((request, response) => {
    const file = files.get(resolve(decodeURIComponent((request.url ?? "").replace(/^\/files/, ""))));
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { "Content-Type": "application/octet-stream" }).end(file);
  });
  await new Promise<void>((ready) => http.listen(options.httpPort, "127.0.0.1", ready));
  return {
    close: async () => {
      await new Promise((done) => server.close(done));
      await new Promise((done) => http.close(done));
    },
  };
}

/** A host key's SHA-256 fingerprint as `ssh-keygen -l -E sha256` prints it after `SHA256:`. */
/**
 * A fresh ed25519 host key in OpenSSH form. ssh2's generator strips leading zero bytes of the public key, so about
 * one key in 256 is one its own parser refuses (mscdex/ssh2#1513, a startup failure seen once here): such a key is
 * drawn again.
 */
export function newHostKey(): string {
  for (;;) {
    const pair = utils.generateKeyPairSync("ed25519");
    if (!(utils.parseKey(pair.private) instanceof Error) && !(utils.parseKey(pair.public) instanceof Error)) return pair.private;
  }
}

export function hostKeyFingerprint(privateKey: string): string {
  const parsed = utils.parseKey(privateKey);
  if (parsed instanceof Error) throw parsed;
  const key = Array.isArray(parsed) ? parsed[0]! : parsed;
  return createHash("sha256").update(key.getPublicSSH()).digest("base64").replace(/=+$/, "");
}
