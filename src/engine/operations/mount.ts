/**
 * The service's routes, derived from part 4: each declared operation becomes a method on
 * its path; a path it does not declare is 404, a method it does not declare on a declared
 * path 405 with `Allow`. An operation without a handler still validates its input, then
 * answers 501. The declarations were checked when the app started (`checkOperations`).
 */
import type { Handler, Hono } from "hono";
import type { MountContext } from "../../platform/engine";
import type { AppEnv } from "../../platform/env";
import { type MethodHandlers, mountResource } from "../../platform/resource";
import { planSecurity } from "../authentication/plan";
import { planLimits } from "../limits/plan";
import { planTransition } from "../states/transition";
import { planRequest } from "../validation/request";
import { planVersions, versionsOf } from "../versions/plan";
import { routePath } from "./path-template";
import { planResponses } from "./responses";
import { operationRoute } from "./route";

/**
 * Mounts every declared operation. Paths with fewer parameters are mounted first, so a
 * literal path wins over a template that would also match it (OpenAPI 3.1 §4.8.8).
 */
export function mountOperations(app: Hono<AppEnv>, context: MountContext): void {
  const { contract, handlers, maxBodyBytes, present } = context;
  const versionPlan = planVersions(contract);
  const byPath = new Map<
    string,
    { parameters: number; methods: Record<string, Handler<AppEnv>> }
  >();
  for (const [id, operation] of Object.entries(contract.operations)) {
    const { path, parameters } = routePath(id, operation.path);
    // Planned on the operation's first request, not at start-up: a Worker's isolate
    // starts per cold request, and planning every operation then (reading each schema,
    // compiling the code that does it) was most of an imported contract's cold start
    // (test/bench/README.md). Planning cannot fail: checkOperations refused at start-up
    // whatever would.
    let route: Handler<AppEnv> | undefined;
    const plan = (): Handler<AppEnv> => {
      const security = planSecurity(contract, id, operation);
      const limits = planLimits(contract, id);
      return operationRoute({
        id,
        handler: handlers[id],
        security,
        limits,
        request: planRequest(operation, {
          maxBodyBytes: limits.maxBodyBytes ?? maxBodyBytes,
          hidden: security?.fields,
          present,
        }),
        responses: planResponses(contract, operation),
        present,
        contract,
        emits: operation.emits ?? [],
        transition: planTransition(contract, operation),
        versions: versionPlan && {
          plan: versionPlan,
          available: versionsOf(versionPlan, operation),
        },
      });
    };
    const entry = byPath.get(path) ?? { parameters: parameters.length, methods: {} };
    entry.methods[operation.method] = (c, next) => {
      route ??= plan();
      return route(c, next);
    };
    byPath.set(path, entry);
  }
  const paths = [...byPath].sort(([, a], [, b]) => a.parameters - b.parameters);
  for (const [path, { methods }] of paths)
    mountResource(app, path, methods as MethodHandlers, present);
}
