package kr.co.collectedge.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks a webhook delivery's signature, either of the two every delivery carries (contracts/webhooks.ts):
 * {@code X-SVC-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret text, "t.body")>} or Standard Webhooks'
 * {@code webhook-id}, {@code webhook-timestamp}, {@code webhook-signature: v1,<base64 HMAC-SHA256(key, "id.t.body")>}
 * with the key the bytes the {@code whsec_} secret's base64 encodes. Pass the raw body exactly as received.
 */
public final class Webhooks {
  public static final String SIGNATURE_HEADER = "X-SVC-Signature";
  /** How far a signature's timestamp may be from this clock: replayed old deliveries fail. */
  public static final long DEFAULT_TOLERANCE_SECONDS = 300;

  private final String secret;
  private final long toleranceSeconds;
  private final Clock clock;

  public Webhooks(String secret) { this(secret, DEFAULT_TOLERANCE_SECONDS, Clock.systemUTC()); }

  public Webhooks(String secret, long toleranceSeconds, Clock clock) {
    if (secret == null || secret.isEmpty()) throw new IllegalArgumentException("a webhook endpoint's secret is required");
    this.secret = secret;
    this.toleranceSeconds = toleranceSeconds;
    this.clock = clock;
  }

  /** The delivery's event, once its X-SVC-Signature header proves the service sent it with this secret. */
  public JsonNode verify(String body, String signatureHeader) throws WebhookSignatureException {
    if (signatureHeader == null || signatureHeader.isEmpty()) throw new WebhookSignatureException(SIGNATURE_HEADER + " header is missing");
    Long t = null;
    List<String> candidates = new ArrayList<>();
    for (String part : signatureHeader.split(",")) {
      String[] kv = part.trim().split("=", 2);
      if (kv.length != 2 || kv[1].isEmpty()) continue;
      if (kv[0].equals("t") && kv[1].matches("\\d+")) t = seconds(kv[1]);
      else if (kv[0].equals("v1")) candidates.add(kv[1]);
    }
    if (t == null || candidates.isEmpty()) throw new WebhookSignatureException(SIGNATURE_HEADER + " header is malformed");
    checkTimestamp(t);
    String expected = HexFormat.of().formatHex(hmac(secret.getBytes(StandardCharsets.UTF_8), t + "." + body));
    if (candidates.stream().noneMatch(c -> same(c, expected))) throw new WebhookSignatureException("no signature matches the body and secret");
    return parse(body);
  }

  /** The delivery's event, once its Standard Webhooks headers (any case) prove the service sent it with this secret. */
  public JsonNode verifyStandard(String body, Map<String, String> headers) throws WebhookSignatureException {
    Map<String, String> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    h.putAll(headers);
    String id = h.get("webhook-id");
    String timestamp = h.get("webhook-timestamp");
    String signatures = h.get("webhook-signature");
    if (id == null || id.isEmpty() || timestamp == null || signatures == null || signatures.isEmpty() || !timestamp.matches("\\d+")) {
      throw new WebhookSignatureException("Standard Webhooks headers are missing or malformed");
    }
    checkTimestamp(seconds(timestamp));
    String expected = "v1," + Base64.getEncoder().encodeToString(hmac(standardKey(), id + "." + timestamp + "." + body));
    boolean matched = false;
    for (String candidate : signatures.split(" ")) matched |= same(candidate, expected);
    if (!matched) throw new WebhookSignatureException("no signature matches the body and secret");
    return parse(body);
  }

  /** The bytes a {@code whsec_} secret stands for (secrets made before 2026-11-26 are base64url). */
  private byte[] standardKey() throws WebhookSignatureException {
    String text = (secret.startsWith("whsec_") ? secret.substring("whsec_".length()) : secret).replace('-', '+').replace('_', '/');
    try {
      return Base64.getDecoder().decode(text + "=".repeat((4 - text.length() % 4) % 4));
    } catch (IllegalArgumentException e) {
      throw new WebhookSignatureException("the secret is not base64");
    }
  }

  /** A header's digits as seconds; more than a long holds is no time a delivery was signed at. */
  private static long seconds(String digits) throws WebhookSignatureException {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new WebhookSignatureException("signature timestamp is out of range");
    }
  }

  private void checkTimestamp(long t) throws WebhookSignatureException {
    if (Math.abs(clock.instant().getEpochSecond() - t) > toleranceSeconds) {
      throw new WebhookSignatureException("signature timestamp is more than " + toleranceSeconds + " seconds away from now");
    }
  }

  private static byte[] hmac(byte[] key, String payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** Constant time for equal lengths: where two signatures differ must not show in how long the comparison takes. */
  private static boolean same(String a, String b) {
    return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  private static JsonNode parse(String body) throws WebhookSignatureException {
    try {
      return Json.MAPPER.readTree(body);
    } catch (java.io.IOException e) {
      throw new WebhookSignatureException("signed body is not JSON");
    }
  }
}
