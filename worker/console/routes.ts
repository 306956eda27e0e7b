import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import { type ConsoleEnv, consoleUserOf } from "./context";
import { pathParams } from "../web/path-params";
import { memberships } from "../domain/users/members";
import { connectCredential } from "./connect-credential";
import { backToCredentials, checkCredentialForm, consentDaysForm, deleteCredentialForm, showCredentials } from "./credentials";
import { decideDevice, showDevice } from "./device";
import { DEVICE_CODE_PAGE } from "../domain/device-codes/store";
import { createDeliveryRouteForm, deleteDeliveryRouteForm, showDeliveryRoutes, showRouteDeliveries } from "./delivery-routes";
import { deleteResultsForm, downloadJobFile, retryJobForm, showJob } from "./job-detail";
import { consolePageHeaders } from "../web/page-headers";
import { jobStatusJson, refreshJob, showJobs } from "./jobs";
import { createKey, revokeKeyForm, showKeys } from "./keys";
import { resultsRetentionForm, showResultsRetention } from "./results-retention";
import { showRequestLog, showRequestLogs } from "./request-logs";
import { createScheduleForm, scheduleActionForm, showScheduleRuns, showSchedules } from "./schedules";
import { showSignIn, signOut, signOutEverywhere, submitSignIn } from "./sign-in";
import { showSignUp, submitSignUp } from "./sign-up";
import { UNLOCK_LINK, unlockPages } from "./unlock";
import { VERIFY_EMAIL_LINK, verifyEmailPages } from "./verify-email";
import { consoleMay, signedIn, workspaceMember } from "./signed-in";
import { showInvitation, submitInvitation } from "./invitation";
import { changeRoleForm, handOverForm, inviteForm, removeMemberForm, revokeInvitationForm, showMembers } from "./members";
import { leaveWorkspaceForm, showWorkspaces, WORKSPACES_PAGE } from "./workspaces";
import { showOverview } from "./overview";
import { showInvoice } from "./invoice";
import { createWebhookForm, deleteWebhookForm, replayWebhookForm, rotateWebhookSecretForm, showWebhookDeliveries, showWebhooks } from "./webhooks";
import { CONSOLE_ASSETS } from "./assets";
import { addCardForm, cancelForm, changePlanForm, deleteCardForm, payInvoiceForm, showBilling, testClockForm, withdrawChangeForm } from "./billing";
import { INVITATION_PAGE } from "../domain/users/send-invitation";
import { consoleErrorPages } from "./error-pages";

/**
 * The path parameters of the workspace pages, each read with `c.req.valid("param")`. An id is any string, as loosely
 * as the lookups take it, so an id no row has (a malformed one too) still gets the page's own not-found.
 */
const id = z.string();
const InWorkspace = z.object({ workspaceId: id });
const Job = InWorkspace.extend({ jobId: id });
const Schedule = InWorkspace.extend({ scheduleId: id });
const ScheduleAction = Schedule.extend({ action: id });
const Credential = InWorkspace.extend({ credentialId: id });
const Key = InWorkspace.extend({ keyId: id });
const Route = InWorkspace.extend({ routeId: id });
const Endpoint = InWorkspace.extend({ endpointId: id });
const EndpointDelivery = Endpoint.extend({ deliveryId: id });
const Member = InWorkspace.extend({ userId: id });
const Invitation = InWorkspace.extend({ invitationId: id });
const Card = InWorkspace.extend({ cardId: id });
const Invoice = InWorkspace.extend({ invoiceId: id });
const RequestLog = InWorkspace.extend({ requestId: id });

/** The console's pages under /console: sign-up and sign-in for anyone, the rest for signed-in members of the workspace in the path. */
export function consoleRoutes(): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  // The pages' own scripts and styles: public, the same for everyone, cached (they change only with a deployment's version).
  for (const [path, asset] of Object.entries(CONSOLE_ASSETS)) {
    app.get(path.replace("/console", ""), (c) => c.body(asset.body, 200, { "Content-Type": asset.type, "Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff" }));
  }
  app.use(consolePageHeaders);
  app.use(consoleErrorPages);
  app.get("/sign-up", showSignUp);
  app.post("/sign-up", submitSignUp);
  app.get("/sign-in", showSignIn);
  app.post("/sign-in", submitSignIn);
  app.post("/sign-out", signedIn, signOut);
  app.post("/sign-out-everywhere", signedIn, signOutEverywhere);
  for (const [link, pages] of [
    [UNLOCK_LINK, unlockPages],
    [VERIFY_EMAIL_LINK, verifyEmailPages],
  ] as const) {
    app.get(link.path.replace("/console", ""), pages.show);
    app.post(link.path.replace("/console", ""), pages.submit);
  }
  app.get(DEVICE_CODE_PAGE.replace("/console", ""), signedIn, showDevice);
  app.post(DEVICE_CODE_PAGE.replace("/console", ""), signedIn, decideDevice);
  // The invited person may be signed out, or not have an account yet: the token is the proof (console/invitation.tsx).
  app.get(INVITATION_PAGE.replace("/console", ""), showInvitation);
  app.post(INVITATION_PAGE.replace("/console", ""), submitInvitation);
  app.get(WORKSPACES_PAGE.replace("/console", ""), signedIn, showWorkspaces);
  app.get("/", signedIn, async (c) => {
    const [first] = await memberships(c.env.DB, consoleUserOf(c).userId);
    return c.redirect(first ? `/console/w/${first.workspaceId}/jobs` : WORKSPACES_PAGE, 303);
  });

  // Each page and form names its action; domain/workspaces/roles.ts says which roles may do it (owners manage, members run and
  // read). Every page here reads its workspace from the path; a page with more in its path declares it after its action.
  app.use("/w/:workspaceId/*", signedIn, pathParams(InWorkspace), workspaceMember);
  app.get("/w/:workspaceId/overview", consoleMay("jobs.read"), showOverview);
  app.get("/w/:workspaceId/jobs", consoleMay("jobs.read"), showJobs);
  app.post("/w/:workspaceId/jobs", consoleMay("jobs.run"), refreshJob);
  app.get("/w/:workspaceId/jobs/:jobId", consoleMay("jobs.read"), pathParams(Job), showJob);
  app.get("/w/:workspaceId/jobs/:jobId/status.json", consoleMay("jobs.read"), pathParams(Job), jobStatusJson);
  app.get("/w/:workspaceId/jobs/:jobId/results.csv", consoleMay("results.download"), pathParams(Job), downloadJobFile("csv"));
  app.get("/w/:workspaceId/jobs/:jobId/results.xlsx", consoleMay("results.download"), pathParams(Job), downloadJobFile("xlsx"));
  app.post("/w/:workspaceId/jobs/:jobId/delete-results", consoleMay("results.retention"), pathParams(Job), deleteResultsForm);
  app.post("/w/:workspaceId/jobs/:jobId/retry", consoleMay("jobs.run"), pathParams(Job), retryJobForm);
  app.get("/w/:workspaceId/schedules", consoleMay("jobs.read"), showSchedules);
  app.post("/w/:workspaceId/schedules", consoleMay("schedules.manage"), createScheduleForm);
  app.get("/w/:workspaceId/schedules/:scheduleId", consoleMay("jobs.read"), pathParams(Schedule), showScheduleRuns);
  app.post("/w/:workspaceId/schedules/:scheduleId/:action", consoleMay("schedules.manage"), pathParams(ScheduleAction), scheduleActionForm);
  app.get("/w/:workspaceId/credentials", consoleMay("credentials.read"), showCredentials);
  app.post("/w/:workspaceId/credentials/connect", consoleMay("credentials.manage"), connectCredential);
  app.post("/w/:workspaceId/credentials/consent-days", consoleMay("credentials.manage"), consentDaysForm);
  app.post("/w/:workspaceId/credentials/:credentialId/check", consoleMay("credentials.manage"), pathParams(Credential), checkCredentialForm);
  app.post("/w/:workspaceId/credentials/:credentialId/delete", consoleMay("credentials.manage"), pathParams(Credential), deleteCredentialForm);
  app.get("/w/:workspaceId/credentials/:credentialId/:form{check|delete}", consoleMay("credentials.read"), pathParams(Credential), backToCredentials);
  app.get("/w/:workspaceId/keys", consoleMay("keys.manage"), showKeys);
  app.post("/w/:workspaceId/keys", consoleMay("keys.manage"), createKey);
  app.post("/w/:workspaceId/keys/:keyId/revoke", consoleMay("keys.manage"), pathParams(Key), revokeKeyForm);
  app.get("/w/:workspaceId/logs", consoleMay("logs.read"), showRequestLogs);
  app.get("/w/:workspaceId/logs/:requestId", consoleMay("logs.read"), pathParams(RequestLog), showRequestLog);
  app.get("/w/:workspaceId/results-retention", consoleMay("results.retention"), showResultsRetention);
  app.post("/w/:workspaceId/results-retention", consoleMay("results.retention"), resultsRetentionForm);
  app.get("/w/:workspaceId/delivery-routes", consoleMay("deliveries.manage"), showDeliveryRoutes);
  app.post("/w/:workspaceId/delivery-routes", consoleMay("deliveries.manage"), createDeliveryRouteForm);
  app.get("/w/:workspaceId/delivery-routes/:routeId", consoleMay("deliveries.manage"), pathParams(Route), showRouteDeliveries);
  app.post("/w/:workspaceId/delivery-routes/:routeId/delete", consoleMay("deliveries.manage"), pathParams(Route), deleteDeliveryRouteForm);
  app.get("/w/:workspaceId/webhooks", consoleMay("webhooks.manage"), showWebhooks);
  app.post("/w/:workspaceId/webhooks", consoleMay("webhooks.manage"), createWebhookForm);
  app.get("/w/:workspaceId/webhooks/:endpointId", consoleMay("webhooks.manage"), pathParams(Endpoint), showWebhookDeliveries);
  app.post("/w/:workspaceId/webhooks/:endpointId/delete", consoleMay("webhooks.manage"), pathParams(Endpoint), deleteWebhookForm);
  app.post("/w/:workspaceId/webhooks/:endpointId/rotate-secret", consoleMay("webhooks.manage"), pathParams(Endpoint), rotateWebhookSecretForm);
  app.post("/w/:workspaceId/webhooks/:endpointId/deliveries/:deliveryId/replay", consoleMay("webhooks.manage"), pathParams(EndpointDelivery), replayWebhookForm);
  app.get("/w/:workspaceId/members", consoleMay("members.manage"), showMembers);
  app.post("/w/:workspaceId/members/invite", consoleMay("members.manage"), inviteForm);
  app.post("/w/:workspaceId/members/:userId/role", consoleMay("members.manage"), pathParams(Member), changeRoleForm);
  app.post("/w/:workspaceId/members/:userId/hand-over", consoleMay("members.manage"), pathParams(Member), handOverForm);
  app.post("/w/:workspaceId/members/:userId/remove", consoleMay("members.manage"), pathParams(Member), removeMemberForm);
  app.post("/w/:workspaceId/members/invitations/:invitationId/revoke", consoleMay("members.manage"), pathParams(Invitation), revokeInvitationForm);
  app.post("/w/:workspaceId/leave", consoleMay("workspace.leave"), leaveWorkspaceForm);
  app.get("/w/:workspaceId/billing", consoleMay("billing.manage"), showBilling);
  app.post("/w/:workspaceId/billing/plan", consoleMay("billing.manage"), changePlanForm);
  app.post("/w/:workspaceId/billing/cancel", consoleMay("billing.manage"), cancelForm);
  app.post("/w/:workspaceId/billing/withdraw-change", consoleMay("billing.manage"), withdrawChangeForm);
  app.post("/w/:workspaceId/billing/cards", consoleMay("billing.manage"), addCardForm);
  app.post("/w/:workspaceId/billing/cards/:cardId/delete", consoleMay("billing.manage"), pathParams(Card), deleteCardForm);
  app.post("/w/:workspaceId/billing/invoices/:invoiceId/pay", consoleMay("billing.manage"), pathParams(Invoice), payInvoiceForm);
  app.post("/w/:workspaceId/billing/test-clock", consoleMay("billing.manage"), testClockForm);
  app.get("/w/:workspaceId/billing/invoices/:invoiceId", consoleMay("billing.manage"), pathParams(Invoice), showInvoice);
  return app;
}
