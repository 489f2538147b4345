/**
 * The composition root: builds the whole Worker from a contract. Middleware order, the
 * operational routes, the routes the contract derives and the one error path are all
 * decided here and nowhere else.
 */
import { Hono } from "hono";
import type { Contract } from "./domain/contract";
import type { AppEnv } from "./http/env";
import { errorResponse } from "./http/errors";
import { platform } from "./http/platform";
import { problemResponse, statusProblem } from "./http/problem";
import { interfaceNotSpecified } from "./routes/placeholder";
import { mountServiceRoutes } from "./routes/service";

const NOT_FOUND = statusProblem(404, "No resource exists at this path.");

export function createApp(contract: Contract): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(platform());
  mountServiceRoutes(app, contract);
  // Part 4 declares no operation: every method on every path of the service's own
  // namespace is unimplemented, whatever it is.
  app.all("*", interfaceNotSpecified);
  app.notFound((c) => problemResponse(c.get("requestId"), NOT_FOUND));
  app.onError(errorResponse);
  return app;
}
