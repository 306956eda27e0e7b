import { oneArg } from "../args";
import type { Command } from "../context";
import { EXIT, UsageError } from "../exit-codes";
import { fields, json } from "../output";

export const linksCreate: Command = {
  usage: "links create JOB_ID [--expires-in SECONDS]",
  summary: "a URL that downloads the job's CSV without an API key (60 s to 7 days, default 1 hour)",
  options: { "expires-in": { type: "string" } },
  async run(ctx, { values, args }) {
    const jobId = oneArg(args, "JOB_ID");
    const raw = values["expires-in"] as string | undefined;
    const expiresInSeconds = raw === undefined ? undefined : Number(raw);
    if (expiresInSeconds !== undefined && !Number.isInteger(expiresInSeconds)) throw new UsageError("--expires-in takes whole seconds");
    const link = await ctx.client().createDownloadLink(jobId, { expiresInSeconds, signal: ctx.signal });
    ctx.out.write(ctx.json ? json(link) : fields({ url: link.url, expiresAt: link.expiresAt }));
    return EXIT.OK;
  },
};
