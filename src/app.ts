/**
 * The composition root: builds the whole Worker from a contract. Middleware order, the
 * operational routes, the routes the contract derives and the one error path are all
 * decided here and nowhere else. A contract the platform cannot serve correctly is
 * refused here, when the Worker starts, not on some later request.
 */
import { Hono } from "hono";
import type { Contract } from "./domain/contract";
import type { AnyHandler, Handlers } from "./domain/handlers";
import type { AppEnv } from "./http/env";
import { errorResponse } from "./http/errors";
import { fastPath } from "./http/fast-path";
import { platform } from "./http/platform";
import type { ProblemType } from "./http/problem";
import { problemResponse, statusProblem } from "./http/problem";
import { DECLARED_PROBLEM_SLUGS, PLATFORM_PROBLEM_TYPES } from "./http/problem-types";
import { declaredSchemas, type JsonSchemaConverter, openapiDocument } from "./openapi/document";
import type { OperationEngine } from "./routes/engine";
import { interfaceNotSpecified, NOT_SPECIFIED_PROBLEM } from "./routes/placeholder";
import { HEALTH, mountServiceRoutes } from "./routes/service";
import { MAX_BODY_BYTES, platformDefaults } from "./validation/defaults";

export interface AppOptions<C extends Contract> {
  /** Handlers by operation id; a declared operation without one answers 501 once its input is valid. */
  readonly handlers?: NoInfer<Handlers<C>>;
  /** zod's `toJSONSchema`; required once the contract declares any schema (see README, "Bundle size"). */
  readonly jsonSchema?: JsonSchemaConverter;
  /**
   * `OPERATION_ENGINE` from `src/routes/engine.ts`; required once the contract declares
   * operations, security schemes or limits (see README, "Bundle size").
   */
  readonly engine?: OperationEngine;
  /** The platform's body cap, in bytes, while part 8 declares none. */
  readonly maxBodyBytes?: number;
  /**
   * While part 4 declares nothing, answer its 501 and health before routing
   * (src/http/fast-path.ts); on by default. Off only to compare the shortcut with the
   * routes it stands for.
   */
  readonly fastPath?: boolean;
}

const NOT_FOUND = statusProblem(404, "No resource exists at this path.");

/**
 * The problem types this app can answer with: the platform's own, those the operation
 * engine brings for parts 4, 5 and 8, and part 7's error types.
 */
function problemTypesOf(contract: Contract, engine: OperationEngine | undefined): ProblemType[] {
  const types = [...PLATFORM_PROBLEM_TYPES, ...(engine?.problemTypes(contract) ?? [])];
  const reserved = [...PLATFORM_PROBLEM_TYPES.map((t) => t.slug), ...DECLARED_PROBLEM_SLUGS];
  for (const [slug, error] of Object.entries(contract.errors)) {
    if (reserved.includes(slug)) throw new Error(`error type ${slug}: the platform uses that name`);
    types.push({
      slug,
      title: error.title,
      status: error.status,
      description: error.description ?? "",
      members: {},
    });
  }
  return types;
}

export function createApp<C extends Contract>(
  contract: C,
  options: AppOptions<C> = {},
): Hono<AppEnv> {
  const { jsonSchema, maxBodyBytes = MAX_BODY_BYTES } = options;
  const handlers = (options.handlers ?? {}) as Readonly<Record<string, AnyHandler | undefined>>;
  if (!jsonSchema && declaredSchemas(contract).length > 0) {
    throw new Error(
      "the contract declares schemas: pass zod's toJSONSchema as the jsonSchema option",
    );
  }
  const { engine } = options;
  const declaresOperations = [contract.operations, contract.securitySchemes, contract.limits].some(
    (part) => Object.keys(part).length > 0,
  );
  if (declaresOperations && !engine) {
    throw new Error(
      "the contract declares operations, security schemes or limits: pass OPERATION_ENGINE as the engine option",
    );
  }
  engine?.check(contract, jsonSchema);
  const problemTypes = problemTypesOf(contract, engine);
  const implemented = new Set(Object.keys(handlers).filter((id) => handlers[id] !== undefined));

  const app = new Hono<AppEnv>();
  app.use(platform());
  mountServiceRoutes(app, {
    report: { contract, defaults: platformDefaults(maxBodyBytes) },
    problemTypes,
    openapi: () =>
      openapiDocument(contract, {
        jsonSchema,
        implemented,
        problemTypes,
        operations: engine?.document,
      }),
  });
  const noOperations = Object.keys(contract.operations).length === 0;
  if (noOperations) {
    // Part 4 declares no operation: every method on every path of the service's own
    // namespace is unimplemented, whatever it is.
    app.all("*", interfaceNotSpecified);
  } else {
    engine?.mount(app, contract, handlers, maxBodyBytes);
  }
  // A path no route knows: outside /_service, only once part 4 declares operations.
  app.notFound((c) => problemResponse(c.get("requestId"), NOT_FOUND));
  app.onError(errorResponse);
  // Only while part 4 declares nothing: once it does, every request would pay for reading
  // its URL twice (the shortcut, then the router), which costs more than the shortcut saves.
  if (noOperations && options.fastPath !== false) {
    const shortcut = fastPath({ notSpecified: NOT_SPECIFIED_PROBLEM, health: HEALTH });
    const route = app.fetch;
    app.fetch = (request, env, executionCtx) =>
      shortcut(request) ?? route(request, env, executionCtx);
  }
  return app;
}
