import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { consolePageHeaders } from "../../web/page-headers";
import { showAlerts } from "./alerts";
import { showAudit } from "./audit";
import { closeReportForm, showReport, showReports } from "./reports";
import { showSearch } from "./home";
import { announceForm, showOutages, withdrawForm } from "./outages";
import { operatorSignedIn } from "./session";
import { operatorSignOut, showOperatorSignIn, submitOperatorSignIn } from "./sign-in";
import { creditForm, planForm, rerunForm, showWorkspace, suspensionForm } from "./workspace";

/** The operator console's pages under /admin (its API is /admin/api, admin/api/app.ts): the same actions, as forms. */
export function adminConsole(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(consolePageHeaders);
  app.get("/sign-in", showOperatorSignIn);
  app.post("/sign-in", submitOperatorSignIn);
  // Each page names its guard rather than `use("*")`: a wildcard here would also catch /admin/api paths the API does not serve.
  app.post("/sign-out", operatorSignedIn, operatorSignOut);
  app.get("/", operatorSignedIn, showSearch);
  app.get("/workspaces/:id", operatorSignedIn, showWorkspace);
  app.post("/workspaces/:id/plan", operatorSignedIn, planForm);
  app.post("/workspaces/:id/credits", operatorSignedIn, creditForm);
  app.post("/workspaces/:id/:direction", operatorSignedIn, suspensionForm);
  app.post("/jobs/:id/rerun", operatorSignedIn, rerunForm);
  app.get("/outages", operatorSignedIn, showOutages);
  app.post("/outages", operatorSignedIn, announceForm);
  app.post("/outages/:code/:id/withdraw", operatorSignedIn, withdrawForm);
  app.get("/audit", operatorSignedIn, showAudit);
  app.get("/alerts", operatorSignedIn, showAlerts);
  app.get("/reports", operatorSignedIn, showReports);
  app.get("/reports/:id", operatorSignedIn, showReport);
  app.post("/reports/:id/close", operatorSignedIn, closeReportForm);
  return app;
}
