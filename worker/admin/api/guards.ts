import type { RouteConfig } from "@hono/zod-openapi";
import { AUDITED, OPERATOR_SESSION, operatorsMay } from "./authenticate";
import type { OperatorAction } from "../../domain/operators/permissions";
import { behind } from "../../platform/http/route-fronts";

/** Operator routes: a live operator session whose role may do `action`; each writes its audit line before it acts or shows. */
export const operating = <R extends RouteConfig>(action: OperatorAction, route: R) => behind(route, OPERATOR_SESSION, operatorsMay(action), AUDITED);
