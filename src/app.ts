/**
 * The composition root: builds the whole Worker from a contract. Middleware order, the
 * operational routes, the routes the contract derives and the one error path are all
 * decided here and nowhere else. A contract the platform cannot serve correctly is
 * refused here, when the Worker starts, not on some later request; what the compiler can
 * see (a missing engine or converter) is refused before that, by the option types.
 */
import { HonoBase as Hono } from "hono/hono-base";
import { TrieRouter } from "hono/router/trie-router";
import { type Contract, declaresXml } from "./contract-language/contract";
import type { AnyHandler, Handlers } from "./contract-language/define-handlers";
import { INTERFACE_NOT_SPECIFIED } from "./contract-language/problem-catalogue";
import type { CorsEnv } from "./platform/cors";
import { MAX_BODY_BYTES, platformDefaults } from "./platform/defaults";
import type { JwtVerifier, OperationEngine, XmlCodec } from "./platform/engine-seam";
import type { AppEnv } from "./platform/env";
import { errorResponse } from "./platform/errors";
import { fastPath } from "./platform/fast-path";
import { platform } from "./platform/middleware";
import {
  declaredSchemas,
  type JsonSchemaConverter,
  openapiDocument,
} from "./platform/openapi/document";
import { interfaceNotSpecified, NOT_SPECIFIED_PROBLEM } from "./platform/placeholder";
import { problemResponse, statusProblem } from "./platform/problem";
import { AS_IS } from "./platform/problem-presenter";
import { HEALTH, mountServiceRoutes } from "./platform/service";

type NonEmpty<R> = [keyof R] extends [never] ? false : true;

/** Whether an operation declares any schema: a request part, a response body or headers. */
type OperationSchemas<O> =
  | (O extends { readonly request: infer Q } ? NonEmpty<Q> : false)
  | (O extends { readonly responses: infer R }
      ? {
          [S in keyof R]: R[S] extends { readonly content: object } | { readonly headers: object }
            ? true
            : false;
        }[keyof R]
      : false);

/**
 * The contract declares something the operation engine serves or documents: anything in
 * parts 2 to 9. Part 1 (what the service does) is all the platform documents by itself.
 */
export type NeedsEngine<C extends Contract> = true extends
  | NonEmpty<C["resources"]>
  | NonEmpty<C["states"]>
  | NonEmpty<C["operations"]>
  | NonEmpty<C["securitySchemes"]>
  | NonEmpty<C["events"]>
  | NonEmpty<C["errors"]>
  | NonEmpty<C["limits"]>
  | (C["versioning"] extends undefined ? false : true)
  ? true
  : false;

/** The same, for a contract the compiler cannot see (JavaScript, a wide `Contract` type). */
function needsEngine(contract: Contract): boolean {
  const { purpose: _documentedByThePlatform, versioning, ...parts } = contract;
  return (
    versioning !== undefined || Object.values(parts).some((part) => Object.keys(part).length > 0)
  );
}

/** The contract declares a schema, which the OpenAPI document needs converted. */
export type NeedsJsonSchema<C extends Contract> = true extends
  | NonEmpty<C["resources"]>
  | NonEmpty<C["events"]>
  | { [K in keyof C["operations"]]: OperationSchemas<C["operations"][K]> }[keyof C["operations"]]
  ? true
  : false;

/** Part 5 declares a scheme whose bearer tokens are JWTs verified here. */
export type NeedsJwt<C extends Contract> = true extends {
  [K in keyof C["securitySchemes"]]: C["securitySchemes"][K] extends { readonly jwt: object }
    ? true
    : false;
}[keyof C["securitySchemes"]]
  ? true
  : false;

/** An XML media type (RFC 7303 §3, §9.2), in any case: `application/xml`, `text/xml`, `*+xml`. */
type XmlMediaType = "application/xml" | "text/xml" | `${string}/${string}+xml`;

/** Whether a body's or an answer's media types include an XML one. */
type HasXml<Content> = true extends {
  [M in keyof Content & string]: Lowercase<M> extends XmlMediaType ? true : false;
}[keyof Content & string]
  ? true
  : false;

/** Whether a request or responses declaration has an XML body or answer. */
type DeclarationXml<Q, R> =
  | (Q extends { readonly body: infer B } ? HasXml<B> : false)
  | {
      [S in keyof R]: R[S] extends { readonly content: infer C } ? HasXml<C> : false;
    }[keyof R];

/** An operation, or one of its part 9 variants, declares an XML media type. */
type OperationXml<O> =
  | DeclarationXml<
      O extends { readonly request: infer Q } ? Q : unknown,
      O extends { readonly responses: infer R } ? R : unknown
    >
  | (O extends { readonly variants: readonly (infer V)[] }
      ? DeclarationXml<
          V extends { readonly request: infer Q } ? Q : unknown,
          V extends { readonly responses: infer R } ? R : unknown
        >
      : false);

/** Part 4 declares an XML body or answer, which the XML codec reads and writes. */
export type NeedsXml<C extends Contract> = true extends {
  [K in keyof C["operations"]]: OperationXml<C["operations"][K]>;
}[keyof C["operations"]]
  ? true
  : false;

interface BaseOptions<C extends Contract> {
  /** Handlers by operation id; a declared operation without one answers 501 once its input is valid. */
  readonly handlers?: NoInfer<Handlers<C>>;
  /** The platform's body cap, in bytes, while part 8 declares none. */
  readonly maxBodyBytes?: number;
  /**
   * While part 4 declares nothing, answer its 501 and health before routing
   * (src/platform/fast-path.ts); on by default. Off only to compare the shortcut with the
   * routes it stands for.
   */
  readonly fastPath?: boolean;
}

/** `OPERATION_ENGINE` from `src/engine/`: required exactly when the contract needs it (NeedsEngine). */
type EngineOption<C extends Contract> =
  NeedsEngine<C> extends true
    ? { readonly engine: OperationEngine }
    : { readonly engine?: OperationEngine };

/** zod's `toJSONSchema`: required exactly when the contract declares a schema. */
type JsonSchemaOption<C extends Contract> =
  NeedsJsonSchema<C> extends true
    ? { readonly jsonSchema: JsonSchemaConverter }
    : { readonly jsonSchema?: JsonSchemaConverter };

/** `JWT_VERIFIER` from `src/engine/jwt.ts`: required exactly when part 5 declares a JWT scheme. */
type JwtOption<C extends Contract> =
  NeedsJwt<C> extends true ? { readonly jwt: JwtVerifier } : { readonly jwt?: JwtVerifier };

/** `XML_CODEC` from `src/engine/xml.ts`: required exactly when part 4 declares an XML media type. */
type XmlOption<C extends Contract> =
  NeedsXml<C> extends true ? { readonly xml: XmlCodec } : { readonly xml?: XmlCodec };

export type AppOptions<C extends Contract> = BaseOptions<C> &
  EngineOption<C> &
  JsonSchemaOption<C> &
  JwtOption<C> &
  XmlOption<C>;

/**
 * The built Worker: closed, so nothing can add a route after the catch-all that would
 * shadow it. `request` is Hono's test helper (a URL or path, resolved against
 * `http://localhost`).
 */
export interface ServiceApp {
  readonly fetch: Hono<AppEnv>["fetch"];
  readonly request: Hono<AppEnv>["request"];
  /**
   * The events queue's consumer (`queue()`), once part 6 declares events: it delivers them
   * as signed webhooks (src/engine/events). Undefined otherwise, so a Worker without events
   * consumes no queue.
   */
  readonly queue: ExportedHandlerQueueHandler<Env> | undefined;
}

const NOT_FOUND = statusProblem(404, "No resource exists at this path.");

export function createApp<C extends Contract>(
  contract: C,
  // The options may be left out only when every option is optional for this contract.
  ...[options = {} as AppOptions<C>]: Partial<AppOptions<C>> extends AppOptions<C>
    ? [options?: AppOptions<C>]
    : [options: AppOptions<C>]
): ServiceApp {
  const { jsonSchema, engine, jwt, xml, maxBodyBytes = MAX_BODY_BYTES } = options;
  const handlers = (options.handlers ?? {}) as Readonly<Record<string, AnyHandler | undefined>>;
  // The types above refuse these at compile time; a contract typed only as `Contract` (or
  // built in plain JavaScript) is refused here instead.
  if (!jsonSchema && declaredSchemas(contract).length > 0) {
    throw new Error(
      "the contract declares schemas: pass zod's toJSONSchema as the jsonSchema option",
    );
  }
  if (needsEngine(contract) && !engine) {
    throw new Error(
      "the contract declares more than its purpose (parts 2 to 9): pass OPERATION_ENGINE as the engine option",
    );
  }
  if (!jwt && Object.values(contract.securitySchemes).some((scheme) => "jwt" in scheme)) {
    throw new Error(
      "part 5 declares a JWT scheme: pass JWT_VERIFIER (src/engine/jwt.ts) as the jwt option",
    );
  }
  if (!xml && declaresXml(contract)) {
    throw new Error(
      "part 4 declares an XML media type: pass XML_CODEC (src/engine/xml.ts) as the xml option",
    );
  }
  for (const id of Object.keys(handlers)) {
    if (!(id in contract.operations))
      throw new Error(`handler ${id}: no operation of that id is declared`);
  }
  engine?.check(contract);
  const present = engine?.presenter(contract) ?? AS_IS;
  const engineTypes = engine?.problemTypes(contract) ?? [];
  const problemTypes = [
    INTERFACE_NOT_SPECIFIED,
    ...engineTypes,
    ...(engine?.errorTypes(contract) ?? []),
  ];
  const implemented = new Set(Object.keys(handlers).filter((id) => handlers[id] !== undefined));

  // Without operations, the trie: it takes every path pattern Hono accepts, builds nothing
  // on the first request, and is 1.8 KiB gzip smaller than Hono's default pair, which the
  // engine brings for the operations' routes (test/tools/bench/README.md).
  const app = new Hono<AppEnv>({ router: engine?.router() ?? new TrieRouter() });
  app.use(platform());
  mountServiceRoutes(app, {
    report: { contract, defaults: platformDefaults(maxBodyBytes) },
    problemTypes,
    // Part 9: one document per version (`?version=`), the current one by default.
    openapi: (version) => {
      const chosen =
        version === undefined
          ? contract.versioning?.versions && engine
            ? engine.forVersion(contract, contract.versioning.current)
            : contract
          : engine?.forVersion(contract, version);
      return (
        chosen &&
        openapiDocument(chosen, {
          jsonSchema,
          implemented,
          problemTypes,
          platformTypes: [INTERFACE_NOT_SPECIFIED, ...engineTypes],
          documenter: engine?.document,
        })
      );
    },
    ...(engine
      ? { destinations: engine.destinations, pageSections: () => engine.pageSections(contract) }
      : {}),
  });
  const noOperations = Object.keys(contract.operations).length === 0;
  if (noOperations) {
    // Part 4 declares no operation: every method on every path of the service's own
    // namespace is unimplemented, whatever it is.
    app.all("*", interfaceNotSpecified);
  } else {
    engine?.mount(app, { contract, handlers, maxBodyBytes, present, jsonSchema, jwt, xml });
  }
  // A path no route knows: outside /_service, only once part 4 declares operations.
  const notFound = present("not-found", NOT_FOUND);
  app.notFound((c) => problemResponse(c.get("requestId"), notFound));
  app.onError((error, c) => errorResponse(error, c, present));
  // Only while part 4 declares nothing: once it does, every request would pay for reading
  // its URL twice (the shortcut, then the router), which costs more than the shortcut saves.
  if (noOperations && options.fastPath !== false) {
    const shortcut = fastPath({ notSpecified: NOT_SPECIFIED_PROBLEM, health: HEALTH });
    const route = app.fetch;
    // Hono's `request` calls `this.fetch`, so the test helper takes the shortcut too.
    app.fetch = (request, env, executionCtx) =>
      shortcut(request, env as CorsEnv | undefined) ?? route(request, env, executionCtx);
  }
  const consume = engine?.consume;
  const queue: ServiceApp["queue"] =
    consume && Object.keys(contract.events).length > 0
      ? (batch, env) => consume(batch, env as unknown as Readonly<Record<string, unknown>>)
      : undefined;
  return Object.freeze({ fetch: app.fetch, request: app.request, queue });
}
