import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Ends a process's children when it ends, however it ends. `wrangler dev` leads a process group of its own (a kill
 * must reach workerd beneath it), so neither a closed terminal's SIGHUP nor anything sent to `npm start`'s group
 * reaches it, and a SIGKILL of its parent runs no handler at all: a left worker kept serving its port and the next
 * `npm start` talked to it. The watchdog is a process of its own, in a session of its own (no terminal signal reaches
 * it), that reads a pipe from its parent: the kernel closes the pipe when the parent dies, by any signal, and the
 * watchdog then ends every process group it was told of.
 */

/** How long a group has after SIGTERM before SIGKILL, as `stop()` gives each child. */
const GRACE_MS = 5_000;

const exists = (group: number) => {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
};

const signal = (group: number, name: NodeJS.Signals) => {
  try {
    process.kill(-group, name);
  } catch {
    // already gone
  }
};

async function watch(): Promise<void> {
  const groups = new Set<number>();
  // A group that emptied is forgotten within a second, so its number, free again, is never a stranger's group here.
  const prune = setInterval(() => {
    for (const group of groups) if (!exists(group)) groups.delete(group);
  }, 1_000);
  let pending = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (/^\d+$/.test(line)) groups.add(Number(line));
  });
  await new Promise((resolve) => process.stdin.once("close", resolve));
  clearInterval(prune);
  for (const group of groups) signal(group, "SIGTERM");
  const deadline = Date.now() + GRACE_MS;
  while ([...groups].some(exists) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const group of groups) signal(group, "SIGKILL");
}

export interface Watchdog {
  /** Ends `child`'s process group (it must lead one: `detached`) when this process ends. */
  watch(child: ChildProcess): void;
  /** Lets the watchdog go once this process has stopped its children itself. */
  release(): void;
}

/** Starts this process's watchdog; it keeps no event loop alive, so a process that is done still exits. */
export function startWatchdog(): Watchdog {
  const root = path.resolve(import.meta.dirname, "..");
  const dog = spawn(path.join(root, "node_modules", ".bin", "node"), ["--import", "tsx", import.meta.filename], { cwd: root, detached: true, stdio: ["pipe", "ignore", "inherit"] });
  dog.unref();
  const pipe = dog.stdin as Socket;
  pipe.unref();
  // A watchdog that died early must not take this process with it (EPIPE on the next child's line).
  pipe.on("error", () => undefined);
  return {
    watch: (child) => void (child.pid && pipe.write(`${child.pid}\n`)),
    release: () => pipe.end(),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await watch();
