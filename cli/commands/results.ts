import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { oneArg } from "../args";
import type { Command } from "../context";
import { EXIT } from "../exit-codes";
import { json, table } from "../output";

export const results: Command = {
  usage: "results JOB_ID [--csv]",
  summary: "print a job's records (partial while it runs); --csv streams the service's CSV",
  options: { csv: { type: "boolean" } },
  async run(ctx, { values, args }) {
    const jobId = oneArg(args, "JOB_ID");
    const client = ctx.client();
    if (values.csv) {
      // The service's bytes unchanged (BOM, Korean headers), so `> file.csv` equals results.csv.
      await pipeline(Readable.fromWeb((await client.resultsCsv(jobId, { signal: ctx.signal })) as never), ctx.out, { end: false });
      return EXIT.OK;
    }
    const found = await client.results(jobId, { signal: ctx.signal });
    if (ctx.json) ctx.out.write(json(found));
    else if (found.data.length === 0) ctx.out.write(`No records (${found.schema}).\n`);
    else ctx.out.write(table(found.data as unknown as Record<string, unknown>[]));
    return EXIT.OK;
  },
};
