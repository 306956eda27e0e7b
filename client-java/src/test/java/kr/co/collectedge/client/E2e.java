package kr.co.collectedge.client;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a partner's Java backend does, run by test/e2e/partner-clients.test.ts against the real local stack:
 * `E2e run <out dir>` (COLLECT_BASE_URL, COLLECT_API_KEY, COLLECT_REFUSED_API_KEY) writes what it saw there as JSON;
 * `E2e verify <delivery.json>` checks a real delivery's two signatures and prints its event.
 */
public final class E2e {
  public static void main(String[] args) throws Exception {
    if (args[0].equals("verify")) {
      JsonNode delivery = Json.MAPPER.readTree(Files.readString(Path.of(args[1])));
      Webhooks hooks = new Webhooks(delivery.get("secret").asText());
      String body = delivery.get("body").asText();
      Map<String, String> headers = Json.MAPPER.convertValue(delivery.get("headers"), new TypeReference<Map<String, String>>() {});
      JsonNode ours = hooks.verify(body, headers.get("x-svc-signature"));
      JsonNode standard = hooks.verifyStandard(body, headers);
      String refused;
      try {
        new Webhooks("whsec_" + java.util.Base64.getEncoder().encodeToString("another endpoint's secret".getBytes())).verify(body, headers.get("x-svc-signature"));
        refused = "accepted";
      } catch (WebhookSignatureException e) {
        refused = e.code();
      }
      ObjectNode out = Json.MAPPER.createObjectNode();
      out.set("event", ours);
      out.put("sameEvent", ours.equals(standard));
      out.put("otherSecret", refused);
      System.out.println(Json.MAPPER.writeValueAsString(out));
      return;
    }
    Path dir = Path.of(args[1]);
    String baseUrl = System.getenv("COLLECT_BASE_URL");
    CollectClient client = CollectClient.builder().baseUrl(baseUrl).apiKey(System.getenv("COLLECT_API_KEY")).build();
    ObjectNode out = Json.MAPPER.createObjectNode();

    Schemas.DataJob created = client.createJob(CollectClient.jobRequest("sandbox.bank", "bank.transactions.cb.v1", Map.of("dateRangeStart", args[2], "dateRangeEnd", args[3])));
    List<Long> progress = new ArrayList<>();
    Schemas.DataJob done = client.waitForJob(created, new JobListener() {
      @Override
      public void onProgress(Schemas.InProgressDataJob job) { progress.add(job.completedTaskCount()); }
    });
    out.put("jobId", done.id());
    out.put("kind", done.kind());
    out.put("recordCount", ((Schemas.SucceededDataJob) done).recordCount());
    out.put("progressCalls", progress.size());

    Records<Schemas.BankTransactionRecord> records = client.records(done.id(), Schemas.BankTransactionRecord.class);
    out.set("records", Json.MAPPER.valueToTree(records.data()));
    out.put("csvBytes", client.downloadResultsCsv(done.id(), dir.resolve("java.csv")));

    Schemas.DataJob accounts = client.createJob(CollectClient.jobRequest("sandbox.bank", "bank.accounts.cb.v1", Map.of()));
    List<String> listed = new ArrayList<>();
    for (Schemas.DataJobListItem item : client.listJobs(new JobFilter(null, null, null, 1))) listed.add(item.id());
    out.set("listed", Json.MAPPER.valueToTree(listed));
    out.put("accountsJobId", accounts.id());
    out.put("downloadUrl", client.createDownloadLink(done.id(), Duration.ofHours(1)).url());

    CollectClient refused = CollectClient.builder().baseUrl(baseUrl).apiKey(System.getenv("COLLECT_REFUSED_API_KEY")).build();
    CredentialCheckResult check = refused.checkCredential("sandbox.bank", null);
    Schemas.JobError error = ((Schemas.FailedDataJob) check.job()).error();
    out.put("verdict", check.verdict().name());
    out.set("failure", Json.MAPPER.valueToTree(error));

    try {
      client.getJob(UUID.randomUUID().toString());
    } catch (CollectApiException e) {
      out.put("missingCode", e.code());
      out.put("missingStatus", e.status());
      out.put("missingRequestId", e.requestId());
    }
    Files.writeString(dir.resolve("java.json"), Json.MAPPER.writeValueAsString(out));
  }
}
