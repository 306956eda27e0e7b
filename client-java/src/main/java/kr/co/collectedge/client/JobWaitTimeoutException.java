package kr.co.collectedge.client;

/** The job was still running when the wait budget ran out: checked, because the caller decides to wait on or give up. */
public class JobWaitTimeoutException extends Exception {
  private final Schemas.InProgressDataJob job;

  public JobWaitTimeoutException(Schemas.InProgressDataJob job, long waitedSeconds) {
    super("job " + job.id() + " still " + job.phase() + " after " + waitedSeconds + " s (" + job.completedTaskCount() + "/" + job.totalTaskCount() + " units)");
    this.job = job;
  }

  /** The job's last snapshot. */
  public Schemas.InProgressDataJob job() { return job; }
}
