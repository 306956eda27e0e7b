/** What the cost meter counts, in the units Cloudflare bills (docs/costs.md); shared by the meter and bench:cost. */
export interface Usage {
  /** fetch, queue (one per batch) and cron invocations, and locally each detached delivery (the consumer invocation it stands for). */
  workerInvocations: number;
  d1Queries: number;
  d1RowsRead: number;
  d1RowsWritten: number;
  /** D1 rows written by what wrote them (a statement's verb and table, `insert task_units`): where to look first. */
  d1RowsWrittenBy: Record<string, number>;
  durableObjectRequests: number;
  /** Messages sent; Cloudflare bills a write, a read and a delete for each (64 KB or less). */
  queueMessages: number;
  r2ClassA: number;
  r2ClassB: number;
  r2BytesWritten: number;
}
