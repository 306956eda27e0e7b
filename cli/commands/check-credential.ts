import { checkCredential } from "../../client/src/index";
import { oneArg } from "../args";
import type { Command } from "../context";
import { EXIT } from "../exit-codes";
import { fields, json, progressReporter } from "../output";

export const checkCredentialCommand: Command = {
  usage: "check-credential PROVIDER_CODE",
  summary: "the spec's credential check: one small job; exit 1 with the category when the institution refuses the credential",
  async run(ctx, { args }) {
    const providerCode = oneArg(args, "PROVIDER_CODE");
    const progress = progressReporter(ctx.err);
    const check = await checkCredential(ctx.client(), providerCode, {
      signal: ctx.signal,
      onProgress: (j) => progress.update(j.completedTaskCount, j.totalTaskCount, j.phase),
    }).finally(() => progress.done());
    const failure = check.job.kind === "Failed" ? check.job.error : undefined;
    const report = { providerCode, verdict: check.verdict, category: check.category ?? null, code: failure?.code ?? null, message: failure?.message ?? null, jobId: check.job.id };
    ctx.out.write(ctx.json ? json(report) : fields(report));
    return check.verdict === "VALID" ? EXIT.OK : EXIT.FAILED;
  },
};
