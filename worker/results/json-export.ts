import { recordLineBatches } from "./record-lines";
import type { FinishedUnit } from "../jobs/store";

/** The results document, streamed: stored lines are already JSON, so they pass through unparsed. */
export async function* jsonResults(
  bucket: R2Bucket,
  head: { jobId: string; schema: string; totalCount: number },
  units: FinishedUnit[],
): AsyncGenerator<string> {
  yield `{"jobId":${JSON.stringify(head.jobId)},"schema":${JSON.stringify(head.schema)},"totalCount":${head.totalCount},"data":[`;
  let first = true;
  for await (const lines of recordLineBatches(bucket, head.jobId, units)) {
    yield first ? lines.join(",") : `,${lines.join(",")}`;
    first = false;
  }
  yield "]}";
}
