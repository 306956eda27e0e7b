import { readFileSync, readdirSync } from "node:fs";

/** All descendants of a process, found through /proc (workerd runs under wrangler's node process). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, "utf8"))![1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // process ended while we looked
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const child of children.get(p) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

function kbIn(file: string, field: RegExp): number {
  try {
    return Number(field.exec(readFileSync(file, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

const rssKb = (pid: number) => kbIn(`/proc/${pid}/status`, /VmRSS:\s+(\d+)/);
// PSS splits each shared page among the processes mapping it: Chromium's processes share its libraries and the zygote's
// pages, which a sum of their RSS counts once a process.
const pssKb = (pid: number) => kbIn(`/proc/${pid}/smaps_rollup`, /^Pss:\s+(\d+)/m);

/** A process tree's summed RSS now, MB. */
export const treeRssMb = (rootPid: number) => descendants(rootPid).concat(rootPid).reduce((sum, pid) => sum + rssKb(pid), 0) / 1024;

/** A process tree's summed PSS now, MB: what the tree holds of the machine's memory, shared pages counted once. */
export const treePssMb = (rootPid: number) => descendants(rootPid).concat(rootPid).reduce((sum, pid) => sum + pssKb(pid), 0) / 1024;

/** Samples the summed RSS of a process tree while `work` runs; returns the peak in MB. */
export async function peakRssMb<T>(rootPid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number; baselineMb: number }> {
  const sample = () => treeRssMb(rootPid);
  const baselineMb = sample();
  let peakMb = baselineMb;
  const timer = setInterval(() => {
    peakMb = Math.max(peakMb, sample());
  }, 25);
  try {
    const result = await work();
    return { result, peakMb: Math.max(peakMb, sample()), baselineMb };
  } finally {
    clearInterval(timer);
  }
}
