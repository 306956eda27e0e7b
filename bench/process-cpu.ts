import { readFileSync } from "node:fs";
import { descendants } from "./process-memory";

const TICKS_PER_SECOND = 100;

/** CPU seconds a process used, with those of its children it has reaped (Chromium's renderers come and go). */
function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the command name: utime stime cutime cstime are the 12th to 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
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
