/**
 * The composition root of the Worker: builds the app from a contract and what the build
 * made of it (src/build/contract.ts). Middleware order, the operational routes, the routes
 * the contract derives and the one error path are all decided here and nowhere else. The
 * contract was checked when the Worker was built, so nothing is checked here that does not
 * depend on the deployment (its secrets, bindings and vars are read on the requests that
 * need them); `createApp` (src/app.ts) runs the same checks and makes the same documents in
 * process, for the tests and the build.
 */
import type { Handler } from "hono";
import { HonoBase as Hono } from "hono/hono-base";
import { TrieRouter } from "hono/router/trie-router";
import type { Contract } from "./contract-language/contract";
import type { AnyHandler, Handlers } from "./contract-language/define-handlers";
import type { NeedsEngine, NeedsXml } from "./contract-language/needs";
import type { Verifier, Verifiers } from "./contract-language/verifiers";
import type { CorsEnv } from "./platform/cors";
import { MAX_BODY_BYTES } from "./platform/defaults";
import {
  type BuiltDocuments,
  exampleText,
  type ServiceDocuments,
  servedDocuments,
} from "./platform/documents";
import type { AppEnv } from "./platform/env";
import { errorResponse } from "./platform/errors";
import { fastPath } from "./platform/fast-path";
import { platform } from "./platform/middleware";
import { interfaceNotSpecified, NOT_SPECIFIED_PROBLEM } from "./platform/placeholder";
import { problemResponse, statusProblem } from "./platform/problem";
import { AS_IS, type ProblemPresenter } from "./platform/problem-presenter";
import { HEALTH, mountServiceRoutes } from "./platform/service";
import type { MountContext, WorkerEngine } from "./platform/worker-seam";
import type { XmlCodec, XmlSchema } from "./platform/xml-seam";

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

/** The serving engine (`src/engine/serving.ts`): required exactly when the contract needs it (NeedsEngine). */
export type EngineOption<C extends Contract, E = WorkerEngine> =
  NeedsEngine<C> extends true ? { readonly engine: E } : { readonly engine?: E };

/** `XML_CODEC` from `src/engine/xml/codec.ts`: required exactly when the contract declares an XML media type. */
export type XmlOption<C extends Contract> =
  NeedsXml<C> extends true ? { readonly xml: XmlCodec } : { readonly xml?: XmlCodec };

export type ServeOptions<C extends Contract> = {
  /** Handlers by operation id; a declared operation without one answers 501 once its input is valid. */
  readonly handlers?: NoInfer<Handlers<C>>;
  /** Verifiers of part 5's schemes only code verifies (src/contract-language/verifiers.ts). */
  readonly verifiers?: NoInfer<Verifiers<C>>;
  /** What the build made of the contract (the generated src/generated/contract.ts). */
  readonly built: BuiltDocuments;
} & EngineOption<C> &
  XmlOption<C>;

/** What the app is composed of, once the contract was checked and its documents made. */
export interface Composition {
  readonly handlers: Readonly<Record<string, AnyHandler | undefined>>;
  readonly verifiers: Readonly<Record<string, Verifier | undefined>>;
  readonly documents: ServiceDocuments;
  readonly engine: WorkerEngine | undefined;
  readonly present: ProblemPresenter;
  readonly xml: XmlCodec | undefined;
  readonly xmlSchemas: readonly XmlSchema[];
  /** What the operation at a position answers from under the `examples` setting (JSON text). */
  readonly exampleBook: MountContext["exampleBook"];
  /** The platform's body cap, in bytes, while part 8 declares none. */
  readonly maxBodyBytes: number;
  /**
   * While part 4 declares nothing, answer its 501 and health before routing
   * (src/platform/fast-path.ts). Off only to compare the shortcut with the routes it stands for.
   */
  readonly fastPath: boolean;
}

const NOT_FOUND = statusProblem(404, "No resource exists at this path.");

/** The Worker of a contract the build checked, serving what the build made of it. */
export function serveApp<C extends Contract>(contract: C, options: ServeOptions<C>): ServiceApp {
  const { built, engine, xml } = options as ServeOptions<Contract>;
  return composeApp(contract, {
    handlers: (options.handlers ?? {}) as Composition["handlers"],
    verifiers: (options.verifiers ?? {}) as Composition["verifiers"],
    documents: servedDocuments(built),
    engine,
    present: engine?.presenter(contract) ?? AS_IS,
    xml,
    xmlSchemas: built.xmlSchemas,
    exampleBook: (env, position) => exampleText(env, built.exampleBook, position),
    maxBodyBytes: MAX_BODY_BYTES,
    fastPath: true,
  });
}

/** The app, composed: the one place the platform, the documents and the engine meet. */
export function composeApp(contract: Contract, composition: Composition): ServiceApp {
  const { engine, present, handlers, maxBodyBytes } = composition;
  // Without operations, the trie: it takes every path pattern Hono accepts, builds nothing
  // on the first request, and is 1.8 KiB gzip smaller than Hono's default pair. The engine
  // brings the router of the operations' routes: in a Worker, the one its build chose
  // (src/build/routing.ts).
  const app = new Hono<AppEnv>({ router: engine?.router() ?? new TrieRouter() });
  app.use(platform());
  const sandboxReset = engine?.sandboxReset?.(contract);
  mountServiceRoutes(app, {
    documents: composition.documents,
    ...(engine ? { answering: engine.answering } : {}),
    ...(engine?.destinations ? { destinations: engine.destinations } : {}),
    ...(sandboxReset
      ? { sandboxReset: { ...sandboxReset, reset: sandboxReset.reset as Handler<AppEnv> } }
      : {}),
  });
  const noOperations = Object.keys(contract.operations).length === 0;
  if (noOperations) {
    // Part 4 declares no operation: every method on every path of the service's own
    // namespace is unimplemented, whatever it is.
    app.all("*", interfaceNotSpecified);
  } else {
    const { xml, xmlSchemas, exampleBook } = composition;
    engine?.mount(app, {
      contract,
      handlers,
      verifiers: composition.verifiers,
      maxBodyBytes,
      present,
      xml,
      xmlSchemas,
      exampleBook,
    });
  }
  // A path no route knows: outside /_service, only once part 4 declares operations.
  const notFound = present("not-found", NOT_FOUND);
  app.notFound((c) => problemResponse(c.get("requestId"), notFound));
  app.onError((error, c) => errorResponse(error, c, present));
  // Every route is mounted: the router settles now, while the Worker starts (a limit of its
  // own, 1 s), not in the first request's CPU time (10 ms on the Free plan). Hono's default
  // pair builds its expression of every route on its first match (a Worker's prepared one
  // compiles it), and the code of matching is compiled (test/tools/bench/README.md).
  if (!noOperations) app.router.match("GET", "/");
  // Only while part 4 declares nothing: once it does, every request would pay for reading
  // its URL twice (the shortcut, then the router), which costs more than the shortcut saves.
  if (noOperations && composition.fastPath) {
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
