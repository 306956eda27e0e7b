import { recordLineBatches } from "./record-lines";

/** The results document, streamed: stored lines are already JSON, so they pass through unparsed. */
export async function* jsonResults(
  bucket: R2Bucket,
  head: { jobId: string; schema: string; totalCount: number },
  unitIndexes: number[],
): AsyncGenerator<string> {
  yield `{"jobId":${JSON.stringify(head.jobId)},"schema":${JSON.stringify(head.schema)},"totalCount":${head.totalCount},"data":[`;
  let first = true;
  for await (const lines of recordLineBatches(bucket, head.jobId, unitIndexes)) {
    yield first ? lines.join(",") : `,${lines.join(",")}`;
    first = false;
  }
  yield "]}";
}
