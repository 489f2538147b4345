/**
 * The service's routes, derived from part 4: each declared operation becomes a method on
 * its path; a path it does not declare is 404, a method it does not declare on a declared
 * path 405 with `Allow`. An operation without a handler still validates its input, then
 * answers as the deployment's setting says (`unhandled.ts`: 501 by default). The
 * declarations were checked when the Worker was built (`checkOperations`); what is checked
 * here is that the build gave the engine every feature the contract uses.
 */
import type { Handler, Hono } from "hono";
import { type Operation, operationShapes } from "../../contract-language/contract";
import { servingFeatures } from "../../contract-language/needs";
import { fixedQuery, routedPath } from "../../contract-language/path-key";
import type { AppEnv } from "../../platform/env";
import { type MethodHandlers, mountResource } from "../../platform/resource";
import type { MountContext } from "../../platform/worker-seam";
import { EMPTY_BOOK, type ExampleBook } from "../example-book";
import type { ServingFeatures } from "../features";
import { VERSION_SEGMENT } from "../versions/plan";
import { xmlMappings } from "../zod/xml-mappings";
import { operationsCors } from "./cors";
import { declaredSuccessTypes } from "./failures";
import { byFixedQuery, type Candidate } from "./fixed-query";
import type { ExamplesAnswer, OperationModel } from "./model";
import { routePath } from "./path-template";
import { type OperationSetting, planOperation } from "./plan";
import { problemForm } from "./problem-form";
import { serveOperation } from "./run";

/**
 * How many operations' example books an isolate keeps: those answered last. A chapter is a
 * few KB of JSON, read again from the static assets in well under a millisecond; kept for
 * every operation, they grow with the API and are never released (a 1,201-operation
 * contract's are 8.3 MB of JSON), inside the 128 MB a Worker's isolate may use.
 */
const KEPT_BOOKS = 64;

/**
 * Each operation's example book, read on its first answer made from examples and then kept
 * while it is among the `KEPT_BOOKS` answered last (one operation's, so an isolate holds
 * what it answered lately, never the whole API's); not kept when it could not be read (the
 * deployment's assets), so a later request tries again. The same text (a contract served
 * whole, as in tests) is parsed once.
 */
function bookReader(
  read: MountContext["exampleBook"],
): (env: unknown, position: number) => Promise<ExampleBook | undefined> {
  // In the order they were last used (a Map keeps insertion order): the first is the oldest.
  const books = new Map<number, Promise<ExampleBook | undefined>>();
  let last: { readonly text: string; readonly book: ExampleBook } | undefined;
  return (env, position) => {
    const known = books.get(position);
    if (known) {
      books.delete(position);
      books.set(position, known);
      return known;
    }
    const book = read(env, position).then((text) => {
      if (text === undefined) {
        books.delete(position);
        return undefined;
      }
      if (last?.text !== text)
        last = { text, book: { ...EMPTY_BOOK, ...(JSON.parse(text) as Partial<ExampleBook>) } };
      return last.book;
    });
    books.set(position, book);
    if (books.size > KEPT_BOOKS) books.delete(books.keys().next().value as number);
    return book;
  };
}

/**
 * Mounts every declared operation. Paths with fewer parameters are mounted first, so a
 * literal path wins over a template that would also match it (OpenAPI 3.1 §4.8.8).
 * `examples` (the examples feature's) answers operations without a handler under the
 * `examples` setting; a Worker built without it (every operation had a handler) answers
 * them 501 under every setting.
 */
export function mountOperations(
  app: Hono<AppEnv>,
  context: MountContext,
  features: ServingFeatures,
  examples?: ExamplesAnswer,
): void {
  const { contract, handlers, maxBodyBytes } = context;
  // A build older than the contract: refused whole, rather than served without a feature.
  const missing = servingFeatures(contract).filter((feature) => !features[feature]);
  if (missing.length > 0)
    throw new Error(
      `the contract uses the engine's ${missing.join(", ")} ${missing.length > 1 ? "features" : "feature"}, which this Worker was not built with: run npm run build:contract`,
    );
  const { versions, errorModel, jwt } = features;
  // Made from the JSON Schemas the build made, each on its first use.
  const xml = context.xml && xmlMappings(context.xml, context.xmlSchemas);
  const versionPlan = versions?.plan(contract);
  // With the version in the path, every operation is routed under it (`/:__version/…`).
  const prefix = versionPlan?.placement.in === "path" ? `/:${VERSION_SEGMENT}` : "";
  const versionHidden = versionPlan && versions ? versions.fields(versionPlan.placement) : {};
  // Misconfigured security schemes, logged once for the whole app.
  const reported = new Set<string>();
  // Who a request is to the sandbox, for every operation alike: the credentials any
  // operation's requirement admits, so a read sees what the same caller wrote.
  const sandboxCaller = features.store?.caller(
    contract,
    jwt,
    features.security,
    features.introspection,
    false,
  );
  const exampleBook = bookReader(context.exampleBook);
  const byPath = new Map<
    string,
    {
      parameters: number;
      template: string;
      methods: Record<string, Candidate[]>;
      operations: [string, Operation][];
    }
  >();
  for (const [position, [id, operation]] of Object.entries(contract.operations).entries()) {
    const { path, read, ownSegments, mixedSegments } = routePath(id, operation.path);
    const shapes = operationShapes(operation);
    // Planned on the first request that needs it, not at start-up: a Worker's isolate
    // starts per cold request, and planning every operation then (reading each schema,
    // compiling the code that does it) was most of an imported contract's cold start
    // (test/tools/bench/README.md). Each variant of part 9 is planned as the operation it
    // makes, on the first request its version selects it.
    const models: (OperationModel | undefined)[] = [];
    const variantOf = new Map<string, number>();
    const modelAt = (index: number): OperationModel => {
      const planned = models[index] ?? planOperation(setting, shapes[index] ?? operation, index);
      models[index] = planned;
      return planned;
    };
    const setting: OperationSetting = {
      contract,
      id,
      handler: handlers[id],
      // An operation that presents failures its own way (part 7) answers them so.
      present:
        operation.presents && errorModel ? errorModel.presenter(contract, id) : context.present,
      versions: versions?.gate(id, operation, versionPlan),
      variant: (version) => {
        if (!versionPlan || !versions || version === undefined || shapes.length < 2)
          return modelAt(0);
        const index =
          variantOf.get(version) ?? versions.shapeIndex(versionPlan, operation, version);
        variantOf.set(version, index);
        return modelAt(index);
      },
      problemForm: context.xml ? problemForm(context.xml, declaredSuccessTypes(shapes)) : undefined,
      maxBodyBytes,
      versionHidden,
      pathParameters: read,
      jwt,
      verifiers: context.verifiers ?? {},
      xml: xml?.(id, shapes),
      reported,
      exampleBook: (env) => exampleBook(env, position),
      examples,
      features,
      sandboxCaller,
    };
    const routed = `${prefix}${path}`;
    const entry = byPath.get(routed) ?? {
      // A segment Hono matches by a pattern (`{id}.json`) is half literal: it counts half, so
      // `/files/index.json` is mounted before `/files/{name}.json`, which would also match it.
      parameters: ownSegments + mixedSegments / 2 + (prefix ? 1 : 0),
      template: routedPath(operation.path),
      methods: {},
      operations: [],
    };
    const candidates = entry.methods[operation.method] ?? [];
    candidates.push({
      fixed: fixedQuery(operation),
      serve: (c) => serveOperation(modelAt(0), c),
    });
    entry.methods[operation.method] = candidates;
    entry.operations.push([id, operation]);
    byPath.set(routed, entry);
  }
  const paths = [...byPath].sort(([, a], [, b]) => a.parameters - b.parameters);
  // What CORS allows on each path follows from what its operations declare, their header
  // schemas among it: made on the path's first request while CORS is on, never at start-up.
  // OpenAPI's Paths Object (3.1 §4.8.8): a concrete path is matched before its templated
  // siblings, and a request it matches is routed among its own operations only: a method it
  // does not declare is its 405 with its Allow (RFC 9110 §15.5.6), never a sibling's answer.
  // Paths are mounted with the fewest parameters first, and each answers every method.
  for (const [path, { methods, operations }] of paths) {
    const handlersOf: Record<string, Handler<AppEnv>> = {};
    for (const [method, candidates] of Object.entries(methods))
      handlersOf[method] = byFixedQuery(candidates, context.present);
    mountResource(app, path, handlersOf as MethodHandlers, context.present, () =>
      operationsCors(
        contract,
        operations,
        operations.some(([id]) => handlers[id] === undefined),
      ),
    );
  }
}
