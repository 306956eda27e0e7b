package kr.co.collectedge.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The client's own tests against a stand-in service on this machine (the JDK's HttpServer), run by a small runner
 * whose last line is "N passed, N failed": `java ... kr.co.collectedge.client.ClientTests <webhook-vectors.json>`.
 * The end-to-end lane runs E2e against the real local stack.
 */
public final class ClientTests {
  /** One answer of the stand-in: status, headers, body. */
  record Answer(int status, Map<String, String> headers, String body) {
    static Answer json(int status, String body) { return new Answer(status, Map.of("Content-Type", "application/json"), body); }
  }

  /** A stand-in service answering each request in turn with what the test scripted, recording what it was sent. */
  static final class StandIn implements AutoCloseable {
    final HttpServer server;
    final List<String> requests = new CopyOnWriteArrayList<>();
    final List<String> idempotencyKeys = new CopyOnWriteArrayList<>();
    final List<Instant> times = new CopyOnWriteArrayList<>();

    StandIn(Function<HttpExchange, Answer> answer) throws IOException {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/", exchange -> {
        requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
        times.add(Instant.now());
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        if (key != null) idempotencyKeys.add(key);
        exchange.getRequestBody().readAllBytes();
        Answer a = answer.apply(exchange);
        if (a == null) { // the connection drops without an answer
          exchange.close();
          return;
        }
        a.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        byte[] bytes = a.body().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(a.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) exchange.getResponseBody().write(bytes);
        exchange.close();
      });
      server.start();
    }

    String url() { return "http://127.0.0.1:" + server.getAddress().getPort(); }

    CollectClient client() { return CollectClient.builder().baseUrl(url()).apiKey("sk_test").baseDelay(Duration.ofMillis(20)).build(); }

    @Override
    public void close() { server.stop(0); }
  }

  static Function<HttpExchange, Answer> inTurn(List<Answer> answers) {
    Iterator<Answer> it = answers.iterator();
    return exchange -> it.next();
  }

  static final String JOB = "{\"kind\":\"Succeeded\",\"id\":\"5b0f3c1e-0000-4000-8000-000000000001\",\"providerCode\":\"sandbox.bank\",\"schema\":\"bank.transactions.cb.v1\",\"credentialId\":null,\"suggestedPollIntervalMs\":10,\"maxWaitSeconds\":5,\"recordCount\":1}";

  static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError(what);
  }

  interface Test {
    void run() throws Exception;
  }

  public static void main(String[] args) throws Exception {
    Path vectors = Path.of(args.length > 0 ? args[0] : "../test/support/webhook-vectors.json");
    Map<String, Test> tests = new java.util.LinkedHashMap<>();

    tests.put("createJob repeats after a 503 and a dropped connection under one Idempotency-Key", () -> {
      // null: the connection drops after the service took the request, as a lost answer does.
      try (StandIn s = new StandIn(inTurn(java.util.Arrays.asList(Answer.json(503, "{}"), null, Answer.json(201, JOB))))) {
        Schemas.DataJob job = s.client().createJob(CollectClient.jobRequest("sandbox.bank", "bank.transactions.cb.v1", Map.of("dateRangeStart", "2026-01-01", "dateRangeEnd", "2026-01-31")));
        check(job instanceof Schemas.SucceededDataJob, "a Succeeded job");
        check(s.idempotencyKeys.size() == 3, "three attempts, got " + s.idempotencyKeys.size());
        check(s.idempotencyKeys.stream().distinct().count() == 1, "one key: " + s.idempotencyKeys);
      }
    });

    tests.put("a 429 is waited out for its Retry-After", () -> {
      try (StandIn s = new StandIn(inTurn(List.of(new Answer(429, Map.of("Retry-After", "1", "Content-Type", "application/json"), "{\"code\":\"RATE_LIMITED\",\"message\":\"잠시 후\",\"requestId\":\"r1\"}"), Answer.json(200, JOB))))) {
        s.client().getJob("5b0f3c1e-0000-4000-8000-000000000001");
        check(s.requests.size() == 2, "two requests");
        check(Duration.between(s.times.get(0), s.times.get(1)).toMillis() >= 950, "waited a second");
      }
    });

    tests.put("an error answer carries code, status, requestId and fieldErrors", () -> {
      String envelope = "{\"code\":\"INVALID_DATA_JOB_PARAMS\",\"message\":\"기간이 잘못되었습니다\",\"requestId\":\"req_42\",\"fieldErrors\":[{\"field\":\"body.params.dateRangeStart\",\"code\":\"DATE_RANGE_INVALID\",\"message\":\"날짜\"}]}";
      try (StandIn s = new StandIn(inTurn(List.of(Answer.json(400, envelope))))) {
        try {
          s.client().createJob(CollectClient.jobRequest("sandbox.bank", "bank.transactions.cb.v1", Map.of()));
          check(false, "threw");
        } catch (CollectApiException e) {
          check(e.code().equals("INVALID_DATA_JOB_PARAMS") && e.status() == 400 && e.requestId().equals("req_42"), e.toString());
          check(e.fieldErrors().get(0).field().equals("body.params.dateRangeStart") && e.fieldErrors().get(0).code().equals("DATE_RANGE_INVALID"), "fieldErrors");
          check(s.requests.size() == 1, "a 400 is not repeated");
        }
      }
    });

    tests.put("a download link is not repeated after a 503 (it carries no key)", () -> {
      try (StandIn s = new StandIn(inTurn(List.of(Answer.json(503, "{\"code\":\"SERVICE_UNAVAILABLE\",\"message\":\"x\",\"requestId\":\"r\"}"))))) {
        try {
          s.client().createDownloadLink("5b0f3c1e-0000-4000-8000-000000000001", Duration.ofHours(1));
          check(false, "threw");
        } catch (CollectApiException e) {
          check(e.status() == 503 && s.requests.size() == 1, "one request");
        }
      }
    });

    tests.put("amounts keep every digit and identifiers their leading zeros", () -> {
      String results = "{\"jobId\":\"j\",\"schema\":\"card.approvals.corp.v1\",\"totalCount\":1,\"data\":[{\"schema\":\"card.approvals.corp.v1\",\"approvalNumber\":\"00012345\",\"approvedAt\":\"2026-01-02T03:04:05.000Z\",\"cardNumberMasked\":\"0000-****-****-0001\",\"installmentMonths\":null,\"lifecycleStage\":\"CAPTURED\",\"merchantAddress\":null,\"merchantBusinessIdentifier\":\"0123456789\",\"merchantBusinessType\":null,\"merchantContactNumber\":null,\"merchantName\":\"가맹점\",\"merchantRepresentativeName\":null,\"originalAmount\":12.345,\"originalCurrencyCode\":\"USD\",\"overseas\":true,\"paymentMethod\":\"SINGLE_PAYMENT\",\"settledAmount\":90071992547409931234.01,\"settledCurrencyCode\":\"KRW\",\"status\":\"APPROVED\",\"taxAmount\":0.1,\"transactionIdentifier\":\"000777\",\"aFieldAddedLater\":1}]}";
      try (StandIn s = new StandIn(inTurn(List.of(Answer.json(200, results))))) {
        Records<Schemas.CardApprovalRecord> records = s.client().records("j", Schemas.CardApprovalRecord.class);
        Schemas.CardApprovalRecord r = records.data().get(0);
        check(r.settledAmount().equals(new BigDecimal("90071992547409931234.01")), "settledAmount " + r.settledAmount());
        check(r.taxAmount().equals(new BigDecimal("0.1")) && r.originalAmount().equals(new BigDecimal("12.345")), "small amounts");
        check(r.approvalNumber().equals("00012345") && r.transactionIdentifier().equals("000777") && r.merchantBusinessIdentifier().equals("0123456789"), "identifiers");
      }
    });

    tests.put("listJobs follows nextCursor across pages", () -> {
      String item = "{\"kind\":\"Succeeded\",\"id\":\"%s\",\"providerCode\":\"sandbox.bank\",\"schema\":\"bank.accounts.cb.v1\",\"credentialId\":null}";
      try (StandIn s = new StandIn(inTurn(List.of(
          Answer.json(200, "{\"items\":[" + item.formatted("a") + "," + item.formatted("b") + "],\"nextCursor\":\"c1\"}"),
          Answer.json(200, "{\"items\":[" + item.formatted("c") + "],\"nextCursor\":null}"))))) {
        List<String> ids = new ArrayList<>();
        for (Schemas.DataJobListItem job : s.client().listJobs(new JobFilter(List.of("SUCCEEDED"), null, null, 2))) ids.add(job.id());
        check(ids.equals(List.of("a", "b", "c")), "ids " + ids);
        check(s.requests.get(1).contains("cursor=c1") && s.requests.get(0).contains("status=SUCCEEDED"), "cursor and filter sent: " + s.requests);
      }
    });

    tests.put("a job awaiting its holder's approval is reported once and outlasts the wait budget until the approval's deadline", () -> {
      Instant since = Instant.now();
      String waiting = ("{\"kind\":\"InProgress\",\"id\":\"j\",\"providerCode\":\"hometax\",\"schema\":\"taxportal.tax-invoices.sales.v1\",\"credentialId\":\"c\","
          + "\"suggestedPollIntervalMs\":200,\"maxWaitSeconds\":1,\"phase\":\"RUNNING\",\"completedTaskCount\":0,\"totalTaskCount\":0,"
          + "\"awaitingHolder\":{\"method\":\"SIMPLE_AUTH\",\"provider\":\"kakao\",\"since\":\"%s\",\"until\":\"%s\"}}").formatted(since, since.plusSeconds(3));
      List<Answer> answers = new ArrayList<>();
      for (int i = 0; i < 10; i++) answers.add(Answer.json(200, waiting));
      answers.add(Answer.json(200, JOB));
      try (StandIn s = new StandIn(inTurn(answers))) {
        CollectClient client = s.client();
        List<String> heard = new ArrayList<>();
        Schemas.DataJob done = client.waitForJob(client.getJob("j"), new JobListener() {
          @Override
          public void onAwaitingHolder(Schemas.HolderApproval approval, Schemas.InProgressDataJob job) { heard.add(approval.provider()); }
        });
        check(done instanceof Schemas.SucceededDataJob, "Succeeded after the approval, not a timeout");
        check(heard.equals(List.of("kakao")), "told once: " + heard);
      }
    });

    tests.put("waitForJob gives up after the job's maxWaitSeconds with JobWaitTimeoutException", () -> {
      String running = "{\"kind\":\"InProgress\",\"id\":\"j\",\"providerCode\":\"sandbox.bank\",\"schema\":\"bank.accounts.cb.v1\",\"credentialId\":null,\"suggestedPollIntervalMs\":100,\"maxWaitSeconds\":1,\"phase\":\"RUNNING\",\"completedTaskCount\":1,\"totalTaskCount\":3}";
      try (StandIn s = new StandIn(ex -> Answer.json(200, running))) {
        CollectClient client = s.client();
        try {
          client.waitForJob(client.getJob("j"), null);
          check(false, "threw");
        } catch (JobWaitTimeoutException e) {
          check(e.job().completedTaskCount() == 1, "the last snapshot");
        }
      }
    });

    JsonNode v = Json.MAPPER.readTree(Files.readString(vectors));
    for (JsonNode c : v.get("standardWebhooks")) {
      tests.put("Standard Webhooks vector: " + c.get("name").asText(), () -> {
        Webhooks hooks = new Webhooks(c.get("secret").asText(), 300, Clock.fixed(Instant.ofEpochSecond(c.get("now").asLong()), ZoneOffset.UTC));
        Map<String, String> headers = Json.MAPPER.convertValue(c.get("headers"), new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() {});
        boolean valid;
        try {
          hooks.verifyStandard(c.get("body").asText(), headers);
          valid = true;
        } catch (WebhookSignatureException e) {
          valid = false;
        }
        check(valid == c.get("valid").asBoolean(), "verdict " + valid);
      });
    }
    for (JsonNode c : v.get("svcSignature")) {
      tests.put("X-SVC-Signature vector: " + c.get("name").asText(), () -> {
        Webhooks hooks = new Webhooks(c.get("secret").asText(), 300, Clock.fixed(Instant.ofEpochSecond(c.get("now").asLong()), ZoneOffset.UTC));
        boolean valid;
        try {
          hooks.verify(c.get("body").asText(), c.get("header").asText());
          valid = true;
        } catch (WebhookSignatureException e) {
          check(e.code().equals("WEBHOOK_SIGNATURE_INVALID"), "code");
          valid = false;
        }
        check(valid == c.get("valid").asBoolean(), "verdict " + valid);
      });
    }

    int passed = 0;
    int failed = 0;
    for (Map.Entry<String, Test> t : tests.entrySet()) {
      try {
        t.getValue().run();
        passed++;
        System.out.println("ok   " + t.getKey());
      } catch (Throwable e) {
        failed++;
        System.out.println("FAIL " + t.getKey() + ": " + e);
      }
    }
    System.out.println(passed + " passed, " + failed + " failed");
    System.exit(failed == 0 ? 0 : 1);
  }
}
