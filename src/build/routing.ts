/**
 * The router the build gives a Worker with operations (src/engine/routing.ts). The build
 * composes the app as the Worker will (the same contract, handlers, engine features and
 * documents, so the same routes in the same order), records the path of every route, and
 * asks Hono's regular-expression router to prepare its one expression of them
 * (`buildInitParams`). When it can, the Worker is given that expression, written as code;
 * when it cannot keep the routes' order (a literal segment beside a parameter, as most real
 * APIs have), the trie, which takes every path and builds nothing. Either way the Worker no
 * longer tries the expression on its first request and throws it away.
 */
import { UnsupportedPathError } from "hono/router";
import { buildInitParams, serializeInitParams } from "hono/router/reg-exp-router";
import { TrieRouter } from "hono/router/trie-router";
import type { Contract } from "../contract-language/contract";
import type { AnyHandler } from "../contract-language/define-handlers";
import { preparedRouter } from "../engine/routing";
import type { BuiltDocuments } from "../platform/documents";
import type { WorkerEngine } from "../platform/worker-seam";
import { type ServeOptions, serveApp } from "../serve-app";

/** The router a Worker is given: Hono's prepared expression of its paths, or the trie. */
export type Routing =
  | {
      readonly kind: "prepared";
      /** Every route's path, in the order the app mounts them. */
      readonly paths: readonly string[];
    }
  | { readonly kind: "trie" };

/** The paths the app's routes are mounted at, in order, each once. */
function mountedPaths(
  contract: Contract,
  options: ServeOptions<Contract> & { readonly engine: WorkerEngine },
): string[] {
  const paths = new Set<string>();
  const recorder: ReturnType<WorkerEngine["router"]> = {
    name: "the build's recorder",
    add: (_method, path) => {
      paths.add(path);
    },
    match: () => [[]],
  };
  const engine: WorkerEngine = { ...options.engine, router: () => recorder };
  serveApp(contract, { ...options, engine });
  return [...paths];
}

/**
 * The router for a Worker of `contract` served by `engine` with `built`'s documents (which
 * mount a route per problem page).
 */
export function routingOf(
  contract: Contract,
  handlers: Readonly<Record<string, AnyHandler | undefined>>,
  engine: WorkerEngine,
  built: BuiltDocuments,
): Routing {
  const paths = mountedPaths(contract, { handlers, engine, built } as ServeOptions<Contract> & {
    engine: WorkerEngine;
  });
  try {
    buildInitParams({ paths });
    return { kind: "prepared", paths };
  } catch (error) {
    // An order its expression cannot keep; the trie keeps it.
    if (error instanceof UnsupportedPathError) return { kind: "trie" };
    throw error;
  }
}

/** Hono's prepared expression of `paths`, as code (it holds regular expressions). */
export function preparedCode(paths: readonly string[]): string {
  return serializeInitParams(buildInitParams({ paths: [...paths] }));
}

/** The router `routing` gives, in process (a test composes the app as the Worker does). */
export function routerOf(routing: Routing): WorkerEngine["router"] {
  return routing.kind === "trie"
    ? () => new TrieRouter()
    : // Hono's prepared router fills its lists as routes are added: prepared again per app.
      () => preparedRouter(buildInitParams({ paths: [...routing.paths] }));
}
