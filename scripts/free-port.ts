import { createServer } from "node:net";

// Below Linux's ephemeral range (32768-60999): a port handed out here, closed and listened on again a moment later
// cannot meanwhile become the local port of some outgoing connection, which took one from that range once
// (EADDRINUSE in a Workers test run) when the OS chose the port.
const LOW = 20_000;
const HIGH = 32_000;

/** Whether nothing listens on `port` of this machine right now. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port free right now and outside the ephemeral range, for test stacks that must not collide. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (await portIsFree(port)) return port;
  }
}
