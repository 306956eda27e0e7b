/** Hangul and other wide characters take two terminal columns. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch) ? 2 : 1;
  return width;
}

const pad = (text: string, width: number) => text + " ".repeat(Math.max(0, width - displayWidth(text)));

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Rows as aligned columns under a header, for people. */
export function table(rows: Record<string, unknown>[], columns: string[] = [...new Set(rows.flatMap((r) => Object.keys(r)))]): string {
  const cells = rows.map((row) => columns.map((c) => cell(row[c])));
  const widths = columns.map((c, i) => Math.max(displayWidth(c), ...cells.map((r) => displayWidth(r[i]!))));
  const line = (values: string[]) => values.map((v, i) => pad(v, widths[i]!)).join("  ").trimEnd();
  return [line(columns), ...cells.map(line)].join("\n") + "\n";
}

/** Label: value lines, for one object. */
export function fields(record: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(record).map(displayWidth));
  return Object.entries(record).map(([k, v]) => `${pad(k, width)}  ${cell(v)}`).join("\n") + "\n";
}

export const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Time left until an ISO instant, as mm:ss (00:00 once it has passed). */
export function timeLeft(until: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((Date.parse(until) - now) / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}

/** A request to the holder's phone, as a job's `awaitingHolder` carries it. */
export interface Awaiting {
  provider: string;
  since: string;
  until: string;
}

const awaitingLine = (a: Awaiting) => `waiting for the holder's phone: approve in the ${a.provider} app (${timeLeft(a.until)} left)`;

/**
 * Progress of completed/total units: a bar redrawn in place on a terminal,
 * one plain line per change otherwise (logs, CI, pipes). While the job waits
 * for its holder's phone the terminal's line counts the time left down every
 * second; elsewhere each request to the phone is one line.
 */
export function progressReporter(stream: NodeJS.WritableStream & { isTTY?: boolean }) {
  let last = "";
  let bar = "";
  let awaiting: Awaiting | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  const draw = () => stream.write(`\r${bar}${awaiting ? ` · ${awaitingLine(awaiting)}` : ""}   `);
  return {
    update(completed: number, total: number, phase: string) {
      const text = total > 0 ? `${completed}/${total}` : "0/?";
      if (stream.isTTY) {
        const width = 30;
        const filled = total > 0 ? Math.round((completed / total) * width) : 0;
        bar = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${text} units ${phase}`;
        draw();
      } else if (`${text} ${phase}` !== last) {
        stream.write(`progress ${text} units ${phase}\n`);
      }
      last = `${text} ${phase}`;
    },
    /** The job's `awaitingHolder` of its latest snapshot (undefined once it no longer waits). */
    awaiting(next: Awaiting | undefined) {
      const asked = next && next.since !== awaiting?.since;
      awaiting = next;
      if (!stream.isTTY) {
        if (asked) stream.write(`${awaitingLine(next)}\n`);
        return;
      }
      if (next && !ticker) ticker = setInterval(draw, 1000);
      if (!next && ticker) ticker = void clearInterval(ticker);
    },
    done() {
      if (ticker) clearInterval(ticker);
      if (stream.isTTY && last) stream.write("\n");
    },
  };
}
