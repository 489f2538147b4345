/**
 * The service's routes, derived from part 4: each declared operation becomes a method on
 * its path; a path it does not declare is 404, a method it does not declare on a declared
 * path 405 with `Allow`. An operation without a handler still validates its input, then
 * answers 501. The declarations were checked when the app started (`checkOperations`).
 */
import type { Handler, Hono } from "hono";
import { type Operation, operationShapes } from "../../domain/contract";
import type { MountContext } from "../../platform/engine";
import type { AppEnv } from "../../platform/env";
import { type MethodHandlers, mountResource } from "../../platform/resource";
import { planSecurity } from "../authentication/plan";
import { problemPresenter } from "../error-model";
import { planLimits } from "../limits/plan";
import { planTransition } from "../states/transition";
import { type HiddenFields, planRequest } from "../validation/request";
import { negotiatedRoute, type ServeOperation } from "../versions/negotiate";
import { planVersions, shapeIndex, VERSION_SEGMENT, versionFields } from "../versions/plan";
import { operationsCors } from "./cors";
import { routePath } from "./path-template";
import { planResponses } from "./responses";
import { operationRoute } from "./route";

/**
 * Mounts every declared operation. Paths with fewer parameters are mounted first, so a
 * literal path wins over a template that would also match it (OpenAPI 3.1 §4.8.8).
 */
export function mountOperations(app: Hono<AppEnv>, context: MountContext): void {
  const { contract, handlers, maxBodyBytes, jwt } = context;
  const versionPlan = planVersions(contract);
  // With the version in the path, every operation is routed under it (`/:__version/…`).
  const prefix = versionPlan?.placement.in === "path" ? `/:${VERSION_SEGMENT}` : "";
  const versionHidden = versionPlan ? versionFields(versionPlan.placement) : {};
  // Misconfigured security schemes, logged once for the whole app.
  const reported = new Set<string>();
  const byPath = new Map<
    string,
    {
      parameters: number;
      methods: Record<string, Handler<AppEnv>>;
      operations: [string, Operation][];
    }
  >();
  for (const [id, operation] of Object.entries(contract.operations)) {
    const { path, read, ownSegments } = routePath(id, operation.path);
    const shapes = operationShapes(operation);
    // Planned on the first request that needs it, not at start-up: a Worker's isolate
    // starts per cold request, and planning every operation then (reading each schema,
    // compiling the code that does it) was most of an imported contract's cold start
    // (test/bench/README.md). Planning cannot fail: checkOperations refused at start-up
    // whatever would. Each variant of part 9 is planned as the operation it makes.
    const routes: (ServeOperation | undefined)[] = [];
    const plan = (shape: Operation): ServeOperation => {
      // An operation that presents failures its own way (part 7) answers them so.
      const present = operation.presents ? problemPresenter(contract, id) : context.present;
      const security = planSecurity(contract, id, shape, jwt, reported);
      const limits = planLimits(contract, id);
      return operationRoute({
        id,
        handler: handlers[id],
        security,
        limits,
        request: planRequest(shape, {
          maxBodyBytes: limits.maxBodyBytes ?? maxBodyBytes,
          hidden: hide(security?.fields, versionHidden),
          present,
          pathParameters: read,
        }),
        responses: planResponses(contract, shape),
        present,
        contract,
        emits: shape.emits ?? [],
        transition: planTransition(contract, shape),
      });
    };
    // Which variant serves each version, worked out on the version's first request.
    const variantOf = new Map<string, number>();
    const serveFor = (version: string | undefined): ServeOperation => {
      let index = 0;
      if (versionPlan && version !== undefined && shapes.length > 1) {
        index = variantOf.get(version) ?? shapeIndex(versionPlan, operation, version);
        variantOf.set(version, index);
      }
      const planned = routes[index] ?? plan(shapes[index] ?? operation);
      routes[index] = planned;
      return planned;
    };
    const route = negotiatedRoute(id, operation, versionPlan, serveFor);
    const routed = `${prefix}${path}`;
    const entry = byPath.get(routed) ?? {
      // A segment Hono matches by a pattern (`{id}.json`) is half literal: it is not counted.
      parameters: ownSegments + (prefix ? 1 : 0),
      methods: {},
      operations: [],
    };
    entry.methods[operation.method] = route;
    entry.operations.push([id, operation]);
    byPath.set(routed, entry);
  }
  const paths = [...byPath].sort(([, a], [, b]) => a.parameters - b.parameters);
  // What CORS allows on each path follows from what its operations declare.
  for (const [path, { methods, operations }] of paths)
    mountResource(
      app,
      path,
      methods as MethodHandlers,
      context.present,
      operationsCors(contract, operations),
    );
}

/** The fields kept from the schemas: credentials' and the version's. */
function hide(
  security: HiddenFields | undefined,
  version: Partial<HiddenFields>,
): HiddenFields | undefined {
  if (Object.keys(version).length === 0) return security;
  const union = (a?: ReadonlySet<string>, b?: ReadonlySet<string>) =>
    new Set([...(a ?? []), ...(b ?? [])]);
  return {
    path: union(security?.path, version.path),
    header: union(security?.header, version.header),
    query: union(security?.query, version.query),
    cookie: union(security?.cookie, version.cookie),
  };
}
