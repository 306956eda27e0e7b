package kr.co.collectedge.client;

import java.util.List;

/**
 * Which jobs {@link CollectClient#listJobs(JobFilter)} pages through; null or empty parts do not filter.
 *
 * @param status PENDING, RUNNING, SUCCEEDED, FAILED
 * @param schemas schema identifiers
 * @param credentialId only jobs logging in (or that logged in) with this credential
 * @param pageSize 1-100 per request
 */
public record JobFilter(List<String> status, List<String> schemas, String credentialId, Integer pageSize) {
  public static JobFilter all() { return new JobFilter(null, null, null, null); }
}
