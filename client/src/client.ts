import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./api";
import { JobFailedError, JobWaitTimeoutError } from "./errors";
import { everyItem } from "./pages";
import { type Replay, type RetryPolicy, sleep, withRetries } from "./retry";
import type { WebhookEventType } from "./webhooks";
import {
  type CreateDataJobRequest,
  type DataJob,
  type DataJobListItem,
  type DataJobResults,
  type HolderApproval,
  type InProgressDataJob,
  isTerminal,
  type Provider,
  type Records,
  type CreateScheduleRequest,
  type Schedule,
  type SchemaDetail,
  type SchemaId,
  type TerminalDataJob,
} from "./types";

export interface CollectClientOptions {
  /** The service's origin, e.g. https://api.collect.example (the OpenAPI document's `servers`). */
  baseUrl: string;
  /** A workspace API key. Keep it on servers and command lines, never in a browser page. */
  apiKey: string;
  /** The business a partner workspace acts for (X-SVC-Business); other workspaces leave it out. */
  business?: string;
  /** Another fetch (a Worker's service binding, a test's), default globalThis.fetch. */
  fetch?: typeof globalThis.fetch;
  /** How often each call is repeated on a 429, and on a dropped connection or 5xx where repeating is safe (default 4 retries). */
  retry?: Omit<RetryPolicy, "signal">;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface CreateJobOptions extends CallOptions {
  /** Sent on every attempt of this call; one is made up when absent, so a retried create never makes two jobs. */
  idempotencyKey?: string;
}

export interface WaitOptions extends CallOptions {
  /** Called with each snapshot while the job is InProgress (completedTaskCount of totalTaskCount units; `awaitingHolder` while it waits for a phone). */
  onProgress?: (job: InProgressDataJob) => void | Promise<void>;
  /**
   * Called once for each request to the holder's phone (a new `since`): tell the person to open `approval.provider`'s
   * app and approve before `approval.until`. The job goes on by itself once they do, and fails non-retryable if not.
   */
  onAwaitingHolder?: (approval: HolderApproval, job: InProgressDataJob) => void | Promise<void>;
  /** The wait budget in seconds; the job's own maxWaitSeconds when absent, as the spec recommends. */
  maxWaitSeconds?: number;
  /** Throw JobFailedError instead of returning a Failed job. */
  throwOnFailure?: boolean;
}

export interface RunJobOptions extends WaitOptions {
  /** New jobs made after a failure whose `retryable` is true (default 2); a non-retryable failure is returned at once. */
  jobRetries?: number;
}

export interface ListJobsFilter {
  /** PENDING, RUNNING, SUCCEEDED, FAILED. */
  status?: ("PENDING" | "RUNNING" | "SUCCEEDED" | "FAILED")[];
  /** Schema identifiers. */
  schemas?: string[];
  /** Only jobs logging in (or that logged in) with this credential. */
  credentialId?: string;
  /** Page size, 1-100. */
  pageSize?: number;
}

export type CollectApi = Client<paths>;

/**
 * The service's API for Node, browsers and Workers (nothing but fetch).
 * `api` is the generated, fully typed openapi-fetch client for any
 * operation; the methods add what a partner otherwise writes by hand:
 * idempotent retried creation, polling, paging, typed records.
 */
export class CollectClient {
  readonly api: CollectApi;
  readonly baseUrl: string;
  private readonly retry: Omit<RetryPolicy, "signal">;
  private readonly headers: Record<string, string>;
  private readonly fetch: typeof globalThis.fetch;

  constructor(options: CollectClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.headers = { Authorization: `Bearer ${options.apiKey}`, ...(options.business ? { "X-SVC-Business": options.business } : {}) };
    // Looked up per call, not captured: a browser's fetch must be called on window.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.retry = options.retry ?? {};
    this.api = createClient<paths>({ baseUrl: this.baseUrl, headers: this.headers, fetch: this.fetch });
  }

  private send<T>(call: () => Promise<{ data?: T; error?: unknown; response: Response }>, signal?: AbortSignal, replay: Replay = "safe") {
    return withRetries(call, { ...this.retry, signal }, replay);
  }

  /** Creates a job; retries reuse one Idempotency-Key, so the service records it once. */
  async createJob(request: CreateDataJobRequest, options: CreateJobOptions = {}): Promise<DataJob> {
    const key = options.idempotencyKey ?? crypto.randomUUID();
    const { data } = await this.send(
      () => this.api.POST("/api/v1/data-jobs", { body: request, params: { header: { "Idempotency-Key": key } }, signal: options.signal }),
      options.signal,
    );
    return data;
  }

  async getJob(id: string, options: CallOptions = {}): Promise<DataJob> {
    const { data } = await this.send(() => this.api.GET("/api/v1/data-jobs/{id}", { params: { path: { id } }, signal: options.signal }), options.signal);
    return data;
  }

  /**
   * Polls a job at its suggestedPollIntervalMs until it is Succeeded or
   * Failed, for at most its maxWaitSeconds (JobWaitTimeoutError after that).
   * A job waiting for its holder's phone is no hang: it is reported to
   * onAwaitingHolder, and the wait goes on at least until the request's
   * `until` (the person may still approve; the job itself fails after it).
   */
  async waitForJob(job: string | DataJob, options: WaitOptions = {}): Promise<TerminalDataJob> {
    let current = typeof job === "string" ? await this.getJob(job, options) : job;
    const budgetSeconds = options.maxWaitSeconds ?? current.maxWaitSeconds;
    const deadline = Date.now() + budgetSeconds * 1000;
    let askedSince: string | undefined;
    while (!isTerminal(current)) {
      const snapshot: InProgressDataJob = current;
      const approval = snapshot.awaitingHolder;
      if (approval && approval.since !== askedSince) {
        askedSince = approval.since;
        await options.onAwaitingHolder?.(approval, snapshot);
      }
      await options.onProgress?.(snapshot);
      const left = Math.max(deadline, approval ? Date.parse(approval.until) + current.suggestedPollIntervalMs : 0) - Date.now();
      if (left <= 0) throw new JobWaitTimeoutError(current, budgetSeconds);
      await sleep(Math.min(current.suggestedPollIntervalMs, left), options.signal);
      current = await this.getJob(current.id, options);
    }
    if (current.kind === "Failed" && options.throwOnFailure) throw new JobFailedError(current);
    return current;
  }

  /**
   * Creates a job and waits for it; when it fails with `retryable: true`
   * (and only then) waits its retryAfterSeconds and makes a new job.
   */
  async runJob(request: CreateDataJobRequest, options: RunJobOptions = {}): Promise<TerminalDataJob> {
    const { throwOnFailure, jobRetries = 2, ...waitOptions } = options;
    for (let attempt = 0; ; attempt++) {
      const job = await this.waitForJob(await this.createJob(request, options), waitOptions);
      if (job.kind === "Succeeded" || !job.error.retryable || attempt >= jobRetries) {
        if (job.kind === "Failed" && throwOnFailure) throw new JobFailedError(job);
        return job;
      }
      await sleep(Math.max((job.error.retryAfterSeconds ?? 0) * 1000, job.suggestedPollIntervalMs), options.signal);
    }
  }

  /** Every job of the workspace, newest first, across all pages: `for await (const job of client.listJobs())`. */
  listJobs(filter: ListJobsFilter = {}, options: CallOptions = {}): AsyncGenerator<DataJobListItem, void, undefined> {
    return everyItem(async (cursor) => {
      const query = {
        cursor,
        limit: filter.pageSize,
        status: filter.status?.join(","),
        actionCodes: filter.schemas,
        credentialId: filter.credentialId,
      };
      const { data } = await this.send(() => this.api.GET("/api/v1/data-jobs", { params: { query }, signal: options.signal }), options.signal);
      return data;
    });
  }

  async getProvider(code: string, options: CallOptions = {}): Promise<Provider> {
    const { data } = await this.send(() => this.api.GET("/api/v1/providers/{code}", { params: { path: { code } }, signal: options.signal }), options.signal);
    return data;
  }

  /** A schema's request fields and record fields as JSON Schema. */
  async getSchema(schema: string, options: CallOptions = {}): Promise<SchemaDetail> {
    const { data } = await this.send(() => this.api.GET("/api/v1/schemas/{schema}", { params: { path: { schema } }, signal: options.signal }), options.signal);
    return data;
  }

  /** A job's results as JSON (partial while it runs). */
  async results(jobId: string, options: CallOptions = {}): Promise<DataJobResults> {
    const { data } = await this.send(
      () => this.api.GET("/api/v1/data-jobs/{id}/results", { params: { path: { id: jobId } }, signal: options.signal }),
      options.signal,
    );
    return data;
  }

  /** A job's records typed by its schema; refuses a job of another schema rather than mistype its records. */
  async records<S extends SchemaId>(jobId: string, schema: S, options: CallOptions = {}): Promise<Records<S>> {
    const results = await this.results(jobId, options);
    if (results.schema !== schema) throw new TypeError(`job ${jobId} has schema ${results.schema}, not ${schema}`);
    return results as Records<S>;
  }

  /** A job's results as the service's CSV (UTF-8 with BOM, Korean headers), streamed. */
  async resultsCsv(jobId: string, options: CallOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const { data } = await this.send(
      () => this.api.GET("/api/v1/data-jobs/{id}/results.csv", { params: { path: { id: jobId } }, parseAs: "stream", signal: options.signal }),
      options.signal,
    );
    return data as ReadableStream<Uint8Array>;
  }

  /**
   * Deletes a finished job's results now (docs/retention.md); the job stays. Idempotent, so it is retried like a read:
   * a second call answers the same deletion.
   */
  async deleteResults(jobId: string, options: CallOptions = {}) {
    const { data } = await this.send(() => this.api.DELETE("/api/v1/data-jobs/{id}/results", { params: { path: { id: jobId } }, signal: options.signal }), options.signal);
    return data;
  }

  /**
   * A URL that downloads the job's results without an API key, for BI tools and spreadsheets (POST .../download-links):
   * the CSV unless `format` says xlsx. An empty body takes the service's defaults (an hour, CSV); a body names both.
   */
  async createDownloadLink(jobId: string, options: CallOptions & { expiresInSeconds?: number; format?: "csv" | "xlsx" } = {}) {
    const body =
      options.expiresInSeconds === undefined && options.format === undefined ? undefined : { expiresInSeconds: options.expiresInSeconds ?? 3600, format: options.format ?? "csv" };
    const { data } = await this.send(
      () => this.api.POST("/api/v1/data-jobs/{id}/download-links", { params: { path: { id: jobId } }, body, signal: options.signal }),
      options.signal,
      "only-refused",
    );
    return data;
  }

  /** Registers an HTTPS endpoint for webhook events; the answer carries its signing `secret`, shown only here. */
  async createWebhookEndpoint(endpoint: { url: string; events: WebhookEventType[]; description?: string }, options: CallOptions = {}) {
    const { data } = await this.send(() => this.api.POST("/api/v1/webhook-endpoints", { body: endpoint, signal: options.signal }), options.signal, "only-refused");
    return data;
  }

  async deleteWebhookEndpoint(id: string, options: CallOptions = {}): Promise<void> {
    await this.send(() => this.api.DELETE("/api/v1/webhook-endpoints/{id}", { params: { path: { id } }, signal: options.signal }), options.signal);
  }

  /** A schedule the service runs itself (cron in Korean time); see docs/scheduling.md. A create is not repeated after a dropped connection. */
  async createSchedule(schedule: CreateScheduleRequest, options: CallOptions = {}): Promise<Schedule> {
    const { data } = await this.send(() => this.api.POST("/api/v1/schedules", { body: schedule, signal: options.signal }), options.signal, "only-refused");
    return data;
  }

  /** Every schedule of the workspace, newest first, across all pages. */
  listSchedules(options: CallOptions = {}): AsyncGenerator<Schedule, void, undefined> {
    return everyItem(async (cursor) => {
      const { data } = await this.send(() => this.api.GET("/api/v1/schedules", { params: { query: { cursor, limit: 100 } }, signal: options.signal }), options.signal);
      return data;
    });
  }

  async getSchedule(id: string, options: CallOptions = {}): Promise<Schedule> {
    const { data } = await this.send(() => this.api.GET("/api/v1/schedules/{id}", { params: { path: { id } }, signal: options.signal }), options.signal);
    return data;
  }

  async pauseSchedule(id: string, options: CallOptions = {}): Promise<Schedule> {
    const { data } = await this.send(() => this.api.POST("/api/v1/schedules/{id}/pause", { params: { path: { id } }, signal: options.signal }), options.signal);
    return data;
  }

  async resumeSchedule(id: string, options: CallOptions = {}): Promise<Schedule> {
    const { data } = await this.send(() => this.api.POST("/api/v1/schedules/{id}/resume", { params: { path: { id } }, signal: options.signal }), options.signal);
    return data;
  }

  async deleteSchedule(id: string, options: CallOptions = {}): Promise<void> {
    await this.send(() => this.api.DELETE("/api/v1/schedules/{id}", { params: { path: { id } }, signal: options.signal }), options.signal);
  }

  /** A schedule's latest runs (jobs), newest first, each with its `scheduledFor`. */
  async listScheduleRuns(id: string, options: CallOptions & { limit?: number } = {}) {
    const { data } = await this.send(() => this.api.GET("/api/v1/schedules/{id}/runs", { params: { path: { id }, query: { limit: options.limit ?? 20 } }, signal: options.signal }), options.signal);
    return data.items;
  }
}
