package kr.co.collectedge.client;

/** What a wait tells its caller while the job runs. */
public interface JobListener {
  /** Each InProgress snapshot (completedTaskCount of totalTaskCount units). */
  default void onProgress(Schemas.InProgressDataJob job) {}

  /**
   * Once per approval request: the job's login waits for its holder to approve it in their phone's app
   * ({@code approval.provider()}) until {@code approval.until()}. Tell the holder; the wait goes on meanwhile and
   * does not time out before the service itself ends the request.
   */
  default void onAwaitingHolder(Schemas.HolderApproval approval, Schemas.InProgressDataJob job) {}
}
