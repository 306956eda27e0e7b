package kr.co.collectedge.client;

/** A delivery whose signature is missing, wrong or too old: checked, because the receiver must refuse it (answer 400). */
public class WebhookSignatureException extends Exception {
  public WebhookSignatureException(String message) { super(message); }

  /** The service's code for it. */
  public String code() { return "WEBHOOK_SIGNATURE_INVALID"; }
}
