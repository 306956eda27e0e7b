package kr.co.collectedge.client;

import java.util.List;

/** A job's records typed by its schema: all of them once the job has succeeded, those collected so far before. */
public record Records<T extends Schemas.JobRecord>(String jobId, String schema, long totalCount, List<T> data) {}
