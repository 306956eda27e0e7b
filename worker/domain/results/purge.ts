import { jobResultsPrefix } from "./keys";

/**
 * Deletes every object stored for a job: its units' objects and an incremental job's changes, and any a lost
 * delivery or a second finisher wrote without a unit naming it, all under the job's prefix. Returns how many.
 */
export async function deleteStoredResults(bucket: R2Bucket, jobId: string): Promise<number> {
  const prefix = jobResultsPrefix(jobId);
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((object) => object.key));
    deleted += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}
