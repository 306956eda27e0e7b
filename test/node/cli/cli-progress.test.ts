import { afterEach, describe, expect, it, vi } from "vitest";
import { progressReporter } from "../../../cli/output";

/** A stream that records what the reporter writes, as a terminal or a pipe would receive it. */
function sink(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: Object.assign({ write: (chunk: string) => void written.push(chunk) }, { isTTY }) as unknown as NodeJS.WritableStream & { isTTY: boolean } };
}

describe("the CLI's progress reporter", () => {
  it("redraws one bar of completed/total units in place on a terminal", () => {
    const { written, stream } = sink(true);
    const progress = progressReporter(stream);
    progress.update(0, 0, "PENDING");
    progress.update(2, 4, "RUNNING");
    progress.update(4, 4, "RUNNING");
    progress.done();
    expect(written.slice(0, 3).every((w) => w.startsWith("\r["))).toBe(true);
    expect(written[1]).toContain(`[${"#".repeat(15)}${"-".repeat(15)}] 2/4 units RUNNING`);
    expect(written[2]).toContain(`[${"#".repeat(30)}] 4/4 units RUNNING`);
    expect(written.at(-1)).toBe("\n");
  });

  it("writes one plain line per change elsewhere", () => {
    const { written, stream } = sink(false);
    const progress = progressReporter(stream);
    progress.update(0, 0, "PENDING");
    progress.update(0, 0, "PENDING");
    progress.update(1, 3, "RUNNING");
    progress.done();
    expect(written).toEqual(["progress 0/? units PENDING\n", "progress 1/3 units RUNNING\n"]);
  });

  describe("on a job waiting for its holder's phone", () => {
    afterEach(() => vi.useRealTimers());
    const asked = (since: number) => ({ provider: "kakao", since: new Date(since).toISOString(), until: new Date(since + 5 * 60_000).toISOString() });

    it("counts the time left down every second on a terminal, and drops the line once the job goes on", () => {
      vi.useFakeTimers({ now: Date.parse("2026-04-01T00:00:00Z") });
      const { written, stream } = sink(true);
      const progress = progressReporter(stream);
      progress.awaiting(asked(Date.now()));
      progress.update(0, 0, "RUNNING");
      expect(written.at(-1)).toContain("0/? units RUNNING · waiting for the holder's phone: approve in the kakao app (05:00 left)");
      vi.advanceTimersByTime(61_000);
      expect(written.at(-1)).toContain("(03:59 left)");
      progress.awaiting(undefined);
      progress.update(1, 2, "RUNNING");
      expect(written.at(-1)).not.toContain("waiting");
      const drawn = written.length;
      vi.advanceTimersByTime(5_000);
      expect(written).toHaveLength(drawn);
      progress.done();
    });

    it("writes one line per request to the phone elsewhere", () => {
      vi.useFakeTimers({ now: Date.parse("2026-04-01T00:00:00Z") });
      const { written, stream } = sink(false);
      const progress = progressReporter(stream);
      const first = asked(Date.now());
      for (const approval of [first, first, asked(Date.now() - 60_000), undefined]) {
        progress.awaiting(approval);
        progress.update(0, 0, "RUNNING");
      }
      progress.done();
      expect(written).toEqual([
        "waiting for the holder's phone: approve in the kakao app (05:00 left)\n",
        "progress 0/? units RUNNING\n",
        "waiting for the holder's phone: approve in the kakao app (04:00 left)\n",
      ]);
    });
  });
});
