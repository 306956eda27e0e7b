package kr.co.collectedge.client;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import kr.co.collectedge.client.Schemas.DataJob;
import kr.co.collectedge.client.Schemas.FailedDataJob;
import kr.co.collectedge.client.Schemas.InProgressDataJob;

/**
 * The collection API for Java 17+ on {@code java.net.http}: what the TypeScript client in client/ gives, the Java way.
 * Every call repeats itself after a 429 (waiting Retry-After) and, where the service answers a repeat the same way
 * (GETs, DELETEs, a job creation under its Idempotency-Key), after a dropped connection or a 5xx, with backoff.
 * Thread-safe: build one and share it.
 */
public final class CollectClient {
  private static final Set<Integer> RETRIED_STATUSES = Set.of(429, 500, 502, 503, 504);
  private static final ZoneId KST = ZoneId.of("Asia/Seoul");
  private static final Set<String> CREDENTIAL_REFUSED = Set.of("CREDENTIAL", "CREDENTIAL_MISSING");
  private static final Set<String> LOGIN_PASSED = Set.of("USER_ENVIRONMENT", "INVALID_INPUT");

  /** Whether a call may be sent again after an answer that does not say the service refused it untouched. */
  private enum Replay { SAFE, ONLY_REFUSED }

  private final URI baseUrl;
  private final String apiKey;
  private final String business;
  private final HttpClient http;
  private final int maxRetries;
  private final Duration baseDelay;
  private final long maxRetryAfterSeconds;
  private final Duration requestTimeout;

  private CollectClient(Builder b) {
    this.baseUrl = URI.create(Objects.requireNonNull(b.baseUrl, "baseUrl").replaceAll("/+$", ""));
    this.apiKey = Objects.requireNonNull(b.apiKey, "apiKey");
    this.business = b.business;
    this.http = b.httpClient != null ? b.httpClient : HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    this.maxRetries = b.maxRetries;
    this.baseDelay = b.baseDelay;
    this.maxRetryAfterSeconds = b.maxRetryAfterSeconds;
    this.requestTimeout = b.requestTimeout;
  }

  public static Builder builder() { return new Builder(); }

  public static final class Builder {
    private String baseUrl;
    private String apiKey;
    private String business;
    private HttpClient httpClient;
    private int maxRetries = 4;
    private Duration baseDelay = Duration.ofMillis(500);
    private long maxRetryAfterSeconds = 300;
    private Duration requestTimeout = Duration.ofSeconds(60);

    /** The service's origin, e.g. https://api.collect.example. */
    public Builder baseUrl(String baseUrl) { this.baseUrl = baseUrl; return this; }
    /** A workspace API key: keep it on servers. */
    public Builder apiKey(String apiKey) { this.apiKey = apiKey; return this; }
    /** The business a partner workspace acts for (X-SVC-Business); other workspaces leave it out. */
    public Builder business(String business) { this.business = business; return this; }
    /** Another HttpClient (a proxy's, a test's); by default one speaking HTTP/1.1. */
    public Builder httpClient(HttpClient httpClient) { this.httpClient = httpClient; return this; }
    /** Further attempts after the first (default 4). */
    public Builder maxRetries(int maxRetries) { this.maxRetries = maxRetries; return this; }
    /** Wait before the first retry when the service names none; doubles each time, at most 30 s (default 500 ms). */
    public Builder baseDelay(Duration baseDelay) { this.baseDelay = baseDelay; return this; }
    /** The longest Retry-After waited out (default 300 s): a free plan's monthly cap answers 429 until next month. */
    public Builder maxRetryAfterSeconds(long seconds) { this.maxRetryAfterSeconds = seconds; return this; }
    /** How long one attempt may take (default 60 s). */
    public Builder requestTimeout(Duration timeout) { this.requestTimeout = timeout; return this; }
    public CollectClient build() { return new CollectClient(this); }
  }

  // ---- jobs

  /** A job request with the schema's params (GET /schemas/{schema}), e.g. dateRangeStart and dateRangeEnd. */
  public static Schemas.CreateDataJobRequest jobRequest(String providerCode, String schema, Map<String, ?> params) {
    return new Schemas.CreateDataJobRequest(providerCode, schema, Json.MAPPER.valueToTree(params), null, null, null);
  }

  /** Creates a job under a new Idempotency-Key, which every retry of this call reuses, so the service makes one job. */
  public DataJob createJob(Schemas.CreateDataJobRequest request) { return createJob(request, UUID.randomUUID().toString()); }

  /** Creates a job under your Idempotency-Key (the same key and body answer the same job again). */
  public DataJob createJob(Schemas.CreateDataJobRequest request, String idempotencyKey) {
    return json(post("/api/v1/data-jobs", request).header("Idempotency-Key", idempotencyKey), Replay.SAFE, DataJob.class);
  }

  public DataJob getJob(String id) { return json(get("/api/v1/data-jobs/" + seg(id)), Replay.SAFE, DataJob.class); }

  /** Polls at the job's suggestedPollIntervalMs until it is Succeeded or Failed, within its own maxWaitSeconds. */
  public DataJob waitForJob(DataJob job, JobListener listener) throws JobWaitTimeoutException, InterruptedException {
    return waitForJob(job, listener, null);
  }

  /**
   * Polls until the job is Succeeded or Failed, for at most {@code maxWait} (the job's maxWaitSeconds when null).
   * While the job's login awaits its holder's approval (awaitingHolder), the listener hears of it and the wait lasts
   * at least until the approval's deadline: the service ends the job itself then, so that is no hang.
   */
  public DataJob waitForJob(DataJob job, JobListener listener, Duration maxWait) throws JobWaitTimeoutException, InterruptedException {
    JobListener l = listener == null ? new JobListener() {} : listener;
    DataJob current = job;
    long budgetSeconds = maxWait == null ? current.maxWaitSeconds() : maxWait.toSeconds();
    Instant deadline = Instant.now().plusSeconds(budgetSeconds);
    String announced = null;
    while (current instanceof InProgressDataJob running) {
      l.onProgress(running);
      Schemas.HolderApproval approval = running.awaitingHolder();
      if (approval != null) {
        if (!approval.since().equals(announced)) l.onAwaitingHolder(approval, running);
        announced = approval.since();
        Instant approvalEnds = Instant.parse(approval.until()).plusMillis(2 * running.suggestedPollIntervalMs());
        if (approvalEnds.isAfter(deadline)) deadline = approvalEnds;
      }
      long left = Duration.between(Instant.now(), deadline).toMillis();
      if (left <= 0) throw new JobWaitTimeoutException(running, budgetSeconds);
      Thread.sleep(Math.min(running.suggestedPollIntervalMs(), left));
      current = getJob(running.id());
    }
    return current;
  }

  /**
   * Creates a job and waits for it; after a failure whose {@code retryable} is true (and only then) waits its
   * retryAfterSeconds and makes a new job, up to {@code jobRetries} times. Returns the last job, Succeeded or Failed.
   */
  public DataJob runJob(Schemas.CreateDataJobRequest request, int jobRetries, JobListener listener) throws JobWaitTimeoutException, InterruptedException {
    for (int attempt = 0; ; attempt++) {
      DataJob job = waitForJob(createJob(request), listener);
      if (!(job instanceof FailedDataJob failed) || !failed.error().retryable() || attempt >= jobRetries) return job;
      Long after = failed.error().retryAfterSeconds();
      Thread.sleep(Math.max(after == null ? 0 : after * 1000, failed.suggestedPollIntervalMs()));
    }
  }

  /** Every job of the workspace matching the filter, newest first, fetching each page only when iteration reaches it. */
  public Iterable<Schemas.DataJobListItem> listJobs(JobFilter filter) {
    return () -> pages(cursor -> {
      Map<String, String> query = new LinkedHashMap<>();
      if (cursor != null) query.put("cursor", cursor);
      if (filter.pageSize() != null) query.put("limit", filter.pageSize().toString());
      if (filter.status() != null && !filter.status().isEmpty()) query.put("status", String.join(",", filter.status()));
      if (filter.schemas() != null && !filter.schemas().isEmpty()) query.put("actionCodes", String.join(",", filter.schemas()));
      if (filter.credentialId() != null) query.put("credentialId", filter.credentialId());
      Schemas.DataJobPage page = json(get("/api/v1/data-jobs" + queryString(query)), Replay.SAFE, Schemas.DataJobPage.class);
      return new Page<>(page.items(), page.nextCursor());
    });
  }

  // ---- results

  /** A job's results as JSON (partial while it runs); each record a JsonNode. */
  public JsonNode results(String jobId) { return json(get("/api/v1/data-jobs/" + seg(jobId) + "/results"), Replay.SAFE, JsonNode.class); }

  /** A job's records as the record type of its schema; refuses a job of another schema rather than mistype its records. */
  public <T extends Schemas.JobRecord> Records<T> records(String jobId, Class<T> type) {
    JsonNode results = results(jobId);
    String schema = results.get("schema").asText();
    if (Schemas.RECORD_TYPES.get(schema) != type) throw new IllegalArgumentException("job " + jobId + " has schema " + schema + ", not that of " + type.getSimpleName());
    List<T> data = new ArrayList<>();
    for (JsonNode item : results.get("data")) data.add(Json.MAPPER.convertValue(item, type));
    return new Records<>(results.get("jobId").asText(), schema, results.get("totalCount").asLong(), data);
  }

  /**
   * A job's results as the service's CSV (UTF-8 with BOM, Korean headers), streamed to {@code file} without holding it
   * in memory; written beside it first and moved into place, so a broken download leaves no half file. Returns its size.
   */
  public long downloadResultsCsv(String jobId, Path file) {
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    try (InputStream body = resultsCsv(jobId)) {
      long size = Files.copy(body, partial, StandardCopyOption.REPLACE_EXISTING);
      Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return size;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A job's CSV as a stream to read and close. */
  public InputStream resultsCsv(String jobId) {
    return send(get("/api/v1/data-jobs/" + seg(jobId) + "/results.csv"), Replay.SAFE);
  }

  /** Deletes a finished job's results now (the job stays); deleting twice answers the same deletion. */
  public Schemas.DataJobResultsDeletion deleteResults(String jobId) {
    return json(request("/api/v1/data-jobs/" + seg(jobId) + "/results").DELETE(), Replay.SAFE, Schemas.DataJobResultsDeletion.class);
  }

  /** A URL that downloads the job's CSV without an API key, for BI tools; not repeated after a dropped connection. */
  public Schemas.DownloadLink createDownloadLink(String jobId, Duration expiresIn) {
    Object body = expiresIn == null ? Map.of() : new Schemas.CreateDownloadLinkRequest((int) expiresIn.toSeconds(), null);
    return json(post("/api/v1/data-jobs/" + seg(jobId) + "/download-links", body), Replay.ONLY_REFUSED, Schemas.DownloadLink.class);
  }

  // ---- providers, credentials, registration

  public Schemas.Provider getProvider(String code) { return json(get("/api/v1/providers/" + seg(code)), Replay.SAFE, Schemas.Provider.class); }

  public Schemas.SchemaDetail getSchema(String schema) { return json(get("/api/v1/schemas/" + seg(schema)), Replay.SAFE, Schemas.SchemaDetail.class); }

  /**
   * The spec's credential check after a credential is registered or changed: runs the provider's smallest job (a
   * schema without a period, else yesterday in Korean time) and says whether the institution accepted the login.
   */
  public CredentialCheckResult checkCredential(String providerCode, JobListener listener) throws JobWaitTimeoutException, InterruptedException {
    DataJob job = runJob(credentialCheckRequest(providerCode, Instant.now()), 2, listener);
    if (!(job instanceof FailedDataJob failed)) return new CredentialCheckResult(CredentialCheckResult.Verdict.VALID, job, null);
    String category = failed.error().category();
    CredentialCheckResult.Verdict verdict = CREDENTIAL_REFUSED.contains(category) ? CredentialCheckResult.Verdict.REFUSED
        : LOGIN_PASSED.contains(category) ? CredentialCheckResult.Verdict.VALID : CredentialCheckResult.Verdict.UNDETERMINED;
    return new CredentialCheckResult(verdict, job, category);
  }

  /** The job {@link #checkCredential} runs for a provider. */
  public Schemas.CreateDataJobRequest credentialCheckRequest(String providerCode, Instant now) {
    Schemas.Provider provider = getProvider(providerCode);
    for (String schema : provider.schemas()) {
      JsonNode properties = getSchema(schema).params().path("properties");
      if (!properties.has("dateRangeStart")) return jobRequest(providerCode, schema, Map.of());
    }
    String yesterday = LocalDate.ofInstant(now, KST).minusDays(1).format(DateTimeFormatter.ISO_LOCAL_DATE);
    return jobRequest(providerCode, provider.schemas().get(0), Map.of("dateRangeStart", yesterday, "dateRangeEnd", yesterday));
  }

  /**
   * Issues a registration session for the registration SDK: hand {@code sessionToken} to the page that opens it. It
   * carries no Idempotency-Key, so it is repeated after a 429 only, never after a dropped connection.
   */
  public Schemas.RegistrationSessionCreated createRegistrationSession(Schemas.CreateRegistrationSessionRequest request) {
    return json(post("/api/v1/registration-sessions", request), Replay.ONLY_REFUSED, Schemas.RegistrationSessionCreated.class);
  }

  public Schemas.RegistrationSession getRegistrationSession(String id) {
    return json(get("/api/v1/registration-sessions/" + seg(id)), Replay.SAFE, Schemas.RegistrationSession.class);
  }

  // ---- webhooks

  /** Registers an HTTPS endpoint; the answer's {@code secret} (shown only here) is what {@link Webhooks} checks with. */
  public Schemas.WebhookEndpointWithSecret createWebhookEndpoint(Schemas.CreateWebhookEndpointRequest endpoint) {
    return json(post("/api/v1/webhook-endpoints", endpoint), Replay.ONLY_REFUSED, Schemas.WebhookEndpointWithSecret.class);
  }

  public void deleteWebhookEndpoint(String id) {
    try (InputStream body = send(request("/api/v1/webhook-endpoints/" + seg(id)).DELETE(), Replay.SAFE)) {
      body.transferTo(java.io.OutputStream.nullOutputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- transport

  private record Page<T>(List<T> items, String nextCursor) {}

  private interface PageFetcher<T> {
    Page<T> fetch(String cursor);
  }

  private static <T> Iterator<T> pages(PageFetcher<T> fetcher) {
    return new Iterator<>() {
      private Iterator<T> items = List.<T>of().iterator();
      private String cursor;
      private boolean last;

      @Override
      public boolean hasNext() {
        while (!items.hasNext() && !last) {
          Page<T> page = fetcher.fetch(cursor);
          items = page.items().iterator();
          cursor = page.nextCursor();
          last = cursor == null;
        }
        return items.hasNext();
      }

      @Override
      public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        return items.next();
      }
    };
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(baseUrl.resolve(path)).timeout(requestTimeout).header("Authorization", "Bearer " + apiKey).header("Accept", "application/json");
    if (business != null) b.header("X-SVC-Business", business);
    return b;
  }

  private HttpRequest.Builder get(String path) { return request(path).GET(); }

  private HttpRequest.Builder post(String path, Object body) {
    try {
      byte[] bytes = Json.MAPPER.writeValueAsBytes(body);
      return request(path).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private <T> T json(HttpRequest.Builder request, Replay replay, Class<T> type) {
    try (InputStream body = send(request, replay)) {
      return Json.MAPPER.readValue(body, type);
    } catch (IOException e) {
      throw new CollectApiException("MALFORMED_RESPONSE", "the service's answer is not the JSON expected: " + e.getMessage(), 200, null, null, null, e);
    }
  }

  /**
   * One call with the retries its Replay allows, answering the 2xx body as a stream (the CSV is never held whole); a
   * non-2xx answer left at the end becomes CollectApiException.
   */
  private InputStream send(HttpRequest.Builder builder, Replay replay) {
    HttpRequest request = builder.build();
    for (int retry = 0; ; retry++) {
      CollectApiException failure;
      try {
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        if (response.statusCode() / 100 == 2) return response.body();
        failure = errorOf(response);
        boolean retried = replay == Replay.SAFE ? RETRIED_STATUSES.contains(failure.status()) : failure.status() == 429;
        Long after = failure.retryAfterSeconds();
        if (!retried || (after != null && after > maxRetryAfterSeconds)) throw failure;
      } catch (IOException e) {
        failure = new CollectApiException("NETWORK_ERROR", "could not reach the service: " + e, 0, null, null, null, e);
        if (replay != Replay.SAFE) throw failure;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CollectApiException("NETWORK_ERROR", "interrupted while calling the service", 0, null, null, null, e);
      }
      if (retry >= maxRetries) throw failure;
      long waitMs = failure.retryAfterSeconds() != null ? failure.retryAfterSeconds() * 1000 : backoffMs(retry);
      try {
        Thread.sleep(waitMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw failure;
      }
    }
  }

  private long backoffMs(int retry) {
    double ceiling = Math.min(baseDelay.toMillis() * Math.pow(2, retry), 30_000);
    return (long) (ceiling / 2 + ThreadLocalRandom.current().nextDouble() * ceiling / 2);
  }

  /** The error for an answer that is not 2xx; a body that is not our envelope (a proxy's page) still gives a usable one. */
  private static CollectApiException errorOf(HttpResponse<InputStream> response) throws IOException {
    byte[] bytes;
    try (InputStream in = response.body()) {
      bytes = in.readNBytes(64 * 1024);
    }
    String requestId = response.headers().firstValue("X-Request-Id").orElse(null);
    Long retryAfter = response.headers().firstValue("Retry-After").map(CollectClient::retryAfterSeconds).orElse(null);
    Schemas.ApiError envelope = null;
    try {
      envelope = Json.MAPPER.readValue(bytes, Schemas.ApiError.class);
    } catch (IOException notOurs) {
      // A gateway's page: the status still says what happened.
    }
    if (envelope == null || envelope.code() == null) {
      return new CollectApiException("HTTP_" + response.statusCode(), "HTTP " + response.statusCode(), response.statusCode(), requestId, null, retryAfter, null);
    }
    return new CollectApiException(envelope.code(), envelope.message(), response.statusCode(), envelope.requestId() != null ? envelope.requestId() : requestId, envelope.fieldErrors(), retryAfter, null);
  }

  private static Long retryAfterSeconds(String header) {
    try {
      return Math.max(0, Long.parseLong(header.trim()));
    } catch (NumberFormatException notSeconds) {
      try {
        ZonedDateTime at = ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME);
        return Math.max(0, Duration.between(Instant.now(), at.toInstant()).toSeconds() + 1);
      } catch (RuntimeException notDate) {
        return null;
      }
    }
  }

  private static String seg(String value) { return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20"); }

  private static String queryString(Map<String, String> query) {
    if (query.isEmpty()) return "";
    StringBuilder s = new StringBuilder("?");
    query.forEach((k, v) -> s.append(s.length() > 1 ? "&" : "").append(k).append('=').append(seg(v)));
    return s.toString();
  }
}
