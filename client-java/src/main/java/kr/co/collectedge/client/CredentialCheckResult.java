package kr.co.collectedge.client;

/**
 * The spec's credential check: VALID, the institution accepted the login; REFUSED, fix or register the credential;
 * UNDETERMINED, the job failed for another reason. {@code category} is the failure's, null when it succeeded.
 */
public record CredentialCheckResult(Verdict verdict, Schemas.DataJob job, String category) {
  public enum Verdict { VALID, REFUSED, UNDETERMINED }
}
