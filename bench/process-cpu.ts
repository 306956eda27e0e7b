import { readFileSync } from "node:fs";
import { descendants } from "./process-memory";

const TICKS_PER_SECOND = 100;

/** CPU seconds a process used itself, and those of its children it has reaped (Chromium's renderers come and go). */
function cpuOf(pid: number): { own: number; reaped: number } {
  try {
    // Fields after the command name: utime stime cutime cstime are the 12th to 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ").slice(11, 15).map(Number);
    return { own: (fields[0]! + fields[1]!) / TICKS_PER_SECOND, reaped: (fields[2]! + fields[3]!) / TICKS_PER_SECOND };
  } catch {
    return { own: 0, reaped: 0 };
  }
}

function cpuSecondsOf(pid: number): number {
  const { own, reaped } = cpuOf(pid);
  return own + reaped;
}

/**
 * What a process of a scraper's or a worker's tree is: Chromium's `--type` (with a utility's sub-type), "browser"
 * without one, "workerd" for the runtime under wrangler dev, else "node".
 */
export function processType(pid: number): string {
  try {
    // Chromium rewrites its processes' command lines into one string, so they are matched, not split.
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    const type = /--type=(\S+)/.exec(cmdline)?.[1];
    if (type === "utility") return `utility ${/--utility-sub-type=([^.\s]+)/.exec(cmdline)?.[1] ?? ""}`.trim();
    if (type) return type;
    if (/^\S*workerd\s/.test(cmdline)) return "workerd";
    return /^\S*chrom/i.test(cmdline) ? "browser" : "node";
  } catch {
    return "gone";
  }
}

/**
 * CPU seconds so far of a process tree by process type: sample before and after. A renderer that has exited is in its
 * zygote's reaped time, so what a zygote reaped counts as "renderer"; what any other process reaped, as its own type.
 */
export function treeCpuSecondsByType(rootPid: number): Record<string, number> {
  const byType: Record<string, number> = {};
  for (const pid of [rootPid, ...descendants(rootPid)]) {
    const type = processType(pid);
    const { own, reaped } = cpuOf(pid);
    byType[type] = (byType[type] ?? 0) + own;
    const reaper = type === "zygote" ? "renderer" : type;
    byType[reaper] = (byType[reaper] ?? 0) + reaped;
  }
  return byType;
}

/** CPU seconds used so far by process trees (live processes plus what each reaped): sample before and after. */
export function treeCpuSeconds(rootPids: readonly number[]): number {
  return rootPids.flatMap((pid) => [pid, ...descendants(pid)]).reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
}

/** Every CPU of the machine, busy seconds so far (user, nice, system, irq, softirq), for the part no tree accounts for. */
export function machineBusySeconds(): number {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).map(Number);
  return (fields[0]! + fields[1]! + fields[2]! + fields[5]! + fields[6]!) / TICKS_PER_SECOND;
}
