export type { components, operations, paths } from "./api";
export {
  type CallOptions,
  CollectClient,
  type CollectApi,
  type CollectClientOptions,
  type CreateJobOptions,
  type ListJobsFilter,
  type RunJobOptions,
  type WaitOptions,
} from "./client";
export { checkCredential, type CredentialCheck, credentialCheckRequest, type CredentialVerdict } from "./credential-check";
export { type DeviceCode, deviceLogin, type DeviceLoginOptions, type DeviceLoginResult } from "./device-login";
export { type ApiErrorCode, CollectApiError, type FieldError, type JobError, type JobErrorCategory, JobFailedError, JobWaitTimeoutError } from "./errors";
export { everyItem, type Page } from "./pages";
export type { RetryPolicy } from "./retry";
export * from "./types";
export { SIGNATURE_HEADER, signWebhook, verifyWebhook, WEBHOOK_EVENT_TYPES, type WebhookEvent, type WebhookEventType, WebhookSignatureError } from "./webhooks";
