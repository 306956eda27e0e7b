import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import type { AdminPagesEnv } from "../context";
import { consolePageHeaders } from "../../web/page-headers";
import { pathParams } from "../../web/path-params";
import { showAlerts } from "./alerts";
import { showAudit } from "./audit";
import { closeReportForm, showReport, showReports } from "./reports";
import { showSearch } from "./home";
import { showJob } from "./job";
import { announceForm, showOutages, withdrawForm } from "./outages";
import { operatorSignedIn } from "./session";
import { adminNotFound } from "./not-found";
import { operatorSignOut, showOperatorSignIn, submitOperatorSignIn } from "./sign-in";
import { creditForm, planForm, rerunForm, showWorkspace, suspensionForm } from "./workspace";

/**
 * The pages' path parameters, each read with `c.req.valid("param")`: any string, as loosely as the lookups take them,
 * so an id no row has (a malformed one too) still gets the page's own not-found.
 */
const Id = z.object({ id: z.string() });
const WorkspaceSuspension = Id.extend({ direction: z.string() });
const ProviderOutage = Id.extend({ code: z.string() });

/** The operator console's pages under /admin (its API is /admin/api, admin/api/app.ts): the same actions, as forms. */
export function adminConsole(): Hono<AdminPagesEnv> {
  const app = new Hono<AdminPagesEnv>();
  app.use(consolePageHeaders);
  app.use(adminNotFound);
  app.get("/sign-in", showOperatorSignIn);
  app.post("/sign-in", submitOperatorSignIn);
  // Each page names its guard rather than `use("*")`: a wildcard here would also catch /admin/api paths the API does not serve.
  app.post("/sign-out", operatorSignedIn, operatorSignOut);
  app.get("/", operatorSignedIn, showSearch);
  app.get("/workspaces/:id", operatorSignedIn, pathParams(Id), showWorkspace);
  app.post("/workspaces/:id/plan", operatorSignedIn, pathParams(Id), planForm);
  app.post("/workspaces/:id/credits", operatorSignedIn, pathParams(Id), creditForm);
  app.post("/workspaces/:id/:direction", operatorSignedIn, pathParams(WorkspaceSuspension), suspensionForm);
  app.get("/jobs/:id", operatorSignedIn, pathParams(Id), showJob);
  app.post("/jobs/:id/rerun", operatorSignedIn, pathParams(Id), rerunForm);
  app.get("/outages", operatorSignedIn, showOutages);
  app.post("/outages", operatorSignedIn, announceForm);
  app.post("/outages/:code/:id/withdraw", operatorSignedIn, pathParams(ProviderOutage), withdrawForm);
  app.get("/audit", operatorSignedIn, showAudit);
  app.get("/alerts", operatorSignedIn, showAlerts);
  app.get("/reports", operatorSignedIn, showReports);
  app.get("/reports/:id", operatorSignedIn, pathParams(Id), showReport);
  app.post("/reports/:id/close", operatorSignedIn, pathParams(Id), closeReportForm);
  return app;
}
