import { describe, expect, it } from "vitest";
import { progressReporter } from "../../cli/output";

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
});
