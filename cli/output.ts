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

/**
 * Progress of completed/total units: a bar redrawn in place on a terminal,
 * one plain line per change otherwise (logs, CI, pipes).
 */
export function progressReporter(stream: NodeJS.WritableStream & { isTTY?: boolean }) {
  let last = "";
  return {
    update(completed: number, total: number, phase: string) {
      const text = total > 0 ? `${completed}/${total}` : "0/?";
      if (stream.isTTY) {
        const width = 30;
        const filled = total > 0 ? Math.round((completed / total) * width) : 0;
        stream.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${text} units ${phase}   `);
      } else if (`${text} ${phase}` !== last) {
        stream.write(`progress ${text} units ${phase}\n`);
      }
      last = `${text} ${phase}`;
    },
    done() {
      if (stream.isTTY && last) stream.write("\n");
    },
  };
}
