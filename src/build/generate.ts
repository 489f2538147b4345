/**
 * What the build makes of a contract (src/build/contract.ts): the contract checked, with the
 * engine features it needs (and only those: the serving engine with the features the contract uses,
 * and the examples' answers while an operation has no handler, src/engine/features.ts, the JWT
 * verifier, the XML codec), its documents made and tagged, the example book, and the module
 * the Worker entry imports them from.
 */
import { toJSONSchema } from "zod/mini";
import { type AppOptions, type PreparedContract, prepareContract } from "../app";
import { BUILD_ENGINE, defaultRouter } from "../build-engine";
import { type Contract, declaresXml } from "../contract-language/contract";
import type { AnyHandler } from "../contract-language/define-handlers";
import { needsEngine } from "../contract-language/needs";
import type { EngineFeature } from "../engine/features";
import type { SandboxFeature } from "../engine/mock-features";
import { type EngineFeatures, servingEngine } from "../engine/serving";
import * as FEATURES from "../features";
import { type SandboxCards, sandboxCards } from "../mocks/sandbox/cards";
import { needsSandbox } from "../mocks/sandbox/place";
import { SANDBOX_CLASS } from "../mocks/sandbox/records";
import type {
  BuiltDocuments,
  ByVersion,
  DocumentAsset,
  DocumentText,
  ReportDocuments,
} from "../platform/documents";
import { entityTag } from "../platform/etag";
import { withDeployment } from "../platform/status";
import type { WorkerEngine } from "../platform/worker-seam";
import type { XmlCodec } from "../platform/xml-seam";
import { engineFeatures } from "./features";
import { preparedCode, type Routing, routerOf, routingOf } from "./routing";

/** The names src/features.ts exports a value of type `V` under. */
type NamesOf<V> = {
  [K in keyof typeof FEATURES]: (typeof FEATURES)[K] extends V ? K : never;
}[keyof typeof FEATURES];

/**
 * Each feature of the serving engine, by the name src/features.ts exports it under: the
 * generated module imports those the contract needs from there. The compiler holds each
 * name to a value of the feature's type.
 */
const SERVING: { readonly [P in EngineFeature]-?: NamesOf<NonNullable<EngineFeatures[P]>> } = {
  versions: "VERSIONS_FEATURE",
  rateLimits: "RATE_LIMITS_FEATURE",
  security: "SECURITY_FEATURE",
  introspection: "INTROSPECTION_FEATURE",
  signatures: "SIGNATURES_FEATURE",
  jwt: "JWT_VERIFIER",
  states: "STATES_FEATURE",
  events: "EVENTS_FEATURE",
  errorModel: "ERROR_MODEL_FEATURE",
  forms: "FORMS_FEATURE",
  // While an operation has no handler: its answers under the `examples` setting.
  examples: "EXAMPLES_FEATURE",
  // Where the sandbox places an operation: its store, for handlers and the reset route.
  store: "STORE_FEATURE",
  // While an operation it places has no handler: its answers under the `sandbox` setting.
  sandbox: "SANDBOX_FEATURE",
};

/** The XML codec, by its name in src/features.ts. */
const XML: NamesOf<XmlCodec> = "XML_CODEC";

/** The sandbox feature of a Worker given the build's routes, by its name in src/features.ts. */
const SANDBOX_WITH_CARDS: NamesOf<(cards: SandboxCards) => SandboxFeature> = "sandboxFeature";

/** What a Worker of the contract is given: the serving engine with its features, the XML codec. */
interface Needed {
  /** The serving engine's features; undefined when the contract needs no engine at all. */
  readonly engine: readonly EngineFeature[] | undefined;
  readonly xml: boolean;
}

/** What the build made, as text: the example book whole and cut by operation (`assetsOf`). */
type BuiltText = BuiltDocuments<DocumentText> & {
  readonly report: ReportDocuments;
  readonly exampleBook: DocumentText;
  readonly exampleChapters: readonly (string | undefined)[];
};

export interface Build {
  readonly needed: Needed;
  /** The router the build chose for the Worker's routes (src/build/routing.ts); none without an engine. */
  readonly routing?: Routing;
  /** What the Worker serves, as text (the generated module moves the documents to assets). */
  readonly built: BuiltText;
  /** What the build reports without refusing the contract: examples it does not serve. */
  readonly findings: readonly string[];
  /** The sandbox's routes of the operations it answers, planned here (src/mocks/sandbox/cards.ts). */
  readonly sandboxCards?: SandboxCards;
}

/**
 * What `contract` with `handlers` needs: exactly what the option types of `serveApp` and the
 * engine's mount require, and the examples feature while an operation has no handler.
 */
export function neededFeatures(
  contract: Contract,
  handlers: Readonly<Record<string, AnyHandler | undefined>>,
  unhandledAnswers = true,
): Needed {
  return {
    engine: needsEngine(contract)
      ? engineFeatures(contract, handlers, unhandledAnswers)
      : undefined,
    xml: declaresXml(contract),
  };
}

/**
 * The options `serveApp` is given for `needed`, as the generated module gives them: the
 * engine routes with `routing`'s router, or Hono's default pair when none is given; the
 * sandbox serves the build's `cards` where given, else plans each operation on its call.
 */
export function servedFeatures(
  needed: Needed,
  routing?: Routing,
  cards?: SandboxCards,
): {
  engine?: WorkerEngine;
  xml?: XmlCodec;
} {
  const { engine, xml } = needed;
  const features = (engine ?? []).map((p) => [
    p,
    p === "sandbox" && cards ? FEATURES[SANDBOX_WITH_CARDS](cards) : FEATURES[SERVING[p]],
  ]);
  return {
    ...(engine
      ? {
          engine: servingEngine(
            Object.fromEntries(features),
            routing ? routerOf(routing) : defaultRouter,
          ),
        }
      : {}),
    ...(xml ? { xml: FEATURES[XML] } : {}),
  };
}

/** A document with its strong entity tag (RFC 9110 §8.8.3), as the Worker would compute it. */
async function tagged(document: DocumentText): Promise<DocumentText> {
  return { body: document.body, etag: await entityTag(document.body) };
}

/**
 * Checks `contract` as `createApp` does, with what it needs: the same line is thrown for a
 * contract that cannot work. Nothing is documented yet (the documents are made on demand).
 */
export function checkBuild(
  contract: Contract,
  handlers: Readonly<Record<string, AnyHandler | undefined>>,
  unhandledAnswers = true,
): PreparedContract {
  return checkedWith(contract, handlers, neededFeatures(contract, handlers, unhandledAnswers));
}

function checkedWith(
  contract: Contract,
  handlers: Readonly<Record<string, AnyHandler | undefined>>,
  needed: Needed,
): PreparedContract {
  // Checked and documented with the whole engine, as `createApp` does.
  const options = {
    handlers,
    ...(needed.engine ? { engine: BUILD_ENGINE, jsonSchema: toJSONSchema } : {}),
    ...(needed.xml ? { xml: FEATURES[XML] } : {}),
  } as AppOptions<Contract>;
  return prepareContract(contract, options);
}

/**
 * Checks `contract` as `createApp` does (it throws the same line for a contract that cannot
 * work) with what it needs, and makes everything the Worker serves of it.
 */
export async function prepareBuild(
  contract: Contract,
  handlers: Readonly<Record<string, AnyHandler | undefined>>,
  unhandledAnswers = true,
): Promise<Build> {
  const needed = neededFeatures(contract, handlers, unhandledAnswers);
  const prepared = checkedWith(contract, handlers, needed);
  const { documents } = prepared;
  const current = documents.openapi(undefined);
  if (!current) throw new Error("the contract has no OpenAPI document");
  const reference = documents.reference(undefined);
  if (!reference) throw new Error("the contract has no reference page");
  const versions: Record<string, DocumentText> = {};
  const pages: Record<string, DocumentText> = {};
  // The pages a large reference continues on (src/platform/reference/page.ts), each tagged.
  const continued = async (version: string | undefined) => {
    const made: DocumentText[] = [];
    for (let n = 1; ; n++) {
      const page = documents.reference(version, n);
      if (!page) return made;
      made.push(await tagged(page));
    }
  };
  const referencePages = {
    current: await continued(undefined),
    versions: {} as Record<string, DocumentText[]>,
  };
  for (const version of prepared.versions) {
    const document = documents.openapi(version);
    if (document) versions[version] = await tagged(document);
    const page = documents.reference(version);
    if (page) pages[version] = await tagged(page);
    referencePages.versions[version] = await continued(version);
  }
  const reportDocuments = await documents.report(undefined);
  if (!reportDocuments) throw new Error("the contract has no status report");
  // As src/platform/service.ts serves it to a deployment of the defaults, by the same function.
  const defaultReport = {
    document: await tagged({ body: JSON.stringify(withDeployment(reportDocuments.report)) }),
    events: Object.keys(contract.events),
  };
  const book = prepared.exampleBook();
  const built = {
    openapi: { current: await tagged(current), versions },
    reference: { current: await tagged(reference), versions: pages },
    referencePages,
    report: reportDocuments,
    defaultReport,
    problemPages: Object.fromEntries(documents.problemPages),
    stylesheet: await tagged(documents.stylesheet),
    xmlSchemas: prepared.xmlSchemas,
    exampleBook: { body: book.text },
    exampleChapters: book.chapters(),
  };
  const { engine } = servedFeatures(needed);
  const unhandled = Object.keys(contract.operations).filter(
    (id) => !Object.hasOwn(handlers, id) || handlers[id] === undefined,
  );
  return {
    needed,
    ...(engine ? { routing: routingOf(contract, handlers, engine, built) } : {}),
    ...(needed.engine?.includes("sandbox")
      ? { sandboxCards: sandboxCards(contract, unhandled) }
      : {}),
    findings: book.findings,
    built,
  };
}

/** Where the example book's chapters go: `/examples/operation-<position from 1>.json`. */
const EXAMPLE_CHAPTERS = "/examples/operation-";

/**
 * The Worker's share of a build: the documents moved out of its script into static assets
 * (`[assets]` in wrangler.toml, read through the `ASSETS` binding, src/platform/documents.ts),
 * so the script stays as small as the contract's code and cold starts do not pay for a
 * document's bytes; what stays in the script is what the Worker computes with (the status
 * report and its page, the XML codec's schemas) and each document's entity tag. Paths are
 * the build's own (`/openapi/current.json`, `/reference/current.html`, numbered versions and
 * problem pages), never a name from the contract, and reached only through the binding: the
 * Worker runs first.
 */
export function assetsOf(built: BuiltText): {
  readonly built: BuiltDocuments<DocumentAsset>;
  readonly files: Readonly<Record<string, string>>;
} {
  const files: Record<string, string> = {};
  const moved = (path: string, document: DocumentText): DocumentAsset => {
    files[path] = document.body;
    return document.etag === undefined ? { asset: path } : { asset: path, etag: document.etag };
  };
  // Each version numbered in the order part 9 lists them, one number for its two documents.
  const byVersion = (documents: ByVersion<DocumentText>, dir: string, type: string) => ({
    current: moved(`/${dir}/current.${type}`, documents.current),
    versions: Object.fromEntries(
      Object.entries(documents.versions).map(([v, d], i) => [
        v,
        moved(`/${dir}/version-${i + 1}.${type}`, d),
      ]),
    ),
  });
  const pages = Object.entries(built.problemPages);
  // A large reference's further pages, by the number of its version (as `byVersion`).
  const continuedPages = (documents: NonNullable<BuiltText["referencePages"]>) => {
    const numbered = (made: readonly DocumentText[], name: string) =>
      made.map((d, i) => moved(`/reference/${name}-page-${i + 1}.html`, d));
    return {
      current: numbered(documents.current, "current"),
      versions: Object.fromEntries(
        Object.entries(documents.versions).map(([v, d], i) => [v, numbered(d, `version-${i + 1}`)]),
      ),
    };
  };
  const { defaultReport, exampleChapters, referencePages, ...documents } = built;
  // One chapter per operation answered from examples: each call reads only its own. A
  // contract none of whose operations is (every one has a handler) keeps its empty book.
  const chapters = exampleChapters.some((chapter) => chapter !== undefined);
  for (const [i, chapter] of exampleChapters.entries())
    if (chapter !== undefined) files[`${EXAMPLE_CHAPTERS}${i + 1}.json`] = chapter;
  return {
    built: {
      ...documents,
      openapi: byVersion(built.openapi, "openapi", "json"),
      // The API reference pages too: rendered here, they would otherwise weigh on the script.
      reference: byVersion(built.reference, "reference", "html"),
      ...(referencePages ? { referencePages: continuedPages(referencePages) } : {}),
      problemPages: Object.fromEntries(
        pages.map(([slug, d], i) => [slug, moved(`/problems/page-${i + 1}.html`, d)]),
      ),
      stylesheet: moved("/style.css", built.stylesheet),
      report: moved("/interface/report.json", { body: JSON.stringify(built.report) }),
      ...(defaultReport
        ? {
            defaultReport: {
              document: moved("/interface/report-default.json", defaultReport.document),
              events: defaultReport.events,
            },
          }
        : {}),
      exampleBook: chapters
        ? { chapters: EXAMPLE_CHAPTERS }
        : moved("/examples/book.json", built.exampleBook),
    },
    files,
  };
}

/**
 * The router the generated module gives the engine: its import, a declaration (the prepared
 * expression) and the expression of the function that makes it. Without a routing (a
 * refused contract's module), the trie, which takes every route.
 */
function routerCode(
  routing: Routing | undefined,
  src: string,
): { imports: string; declared: string; router: string } {
  if (routing?.kind === "prepared")
    return {
      imports: `import { preparedRouter } from "${src}engine/routing";\n`,
      declared: `\n// Hono's expression of every route's path, prepared by the build (src/build/routing.ts).\nconst ROUTES: unknown = ${preparedCode(routing.paths)};\n`,
      router: "() => preparedRouter(ROUTES)",
    };
  return {
    imports: `import { TrieRouter } from "hono/router/trie-router";\n`,
    declared: "",
    router: "() => new TrieRouter()",
  };
}

/** Each import the generated module makes, its declarations, and `BUILT`'s members but `built`. */
function partsCode(
  needed: Needed,
  src: string,
  routing?: Routing,
  cards?: SandboxCards,
): { imports: string; declared: string; given: string } {
  const { engine, xml } = needed;
  // With the build's routes, the sandbox is given them and plans nothing (src/mocks/sandbox/cards.ts).
  const carded = cards !== undefined && engine?.includes("sandbox") === true;
  const withCards = (feature: EngineFeature) => feature === "sandbox" && carded;
  const imported = (feature: EngineFeature) =>
    withCards(feature) ? SANDBOX_WITH_CARDS : SERVING[feature];
  const featureValue = (feature: EngineFeature) =>
    withCards(feature) ? `${SANDBOX_WITH_CARDS}(SANDBOX_CARDS)` : SERVING[feature];
  const names = [
    ...(engine ? ["servingEngine", ...engine.map(imported)] : []),
    ...(xml ? [XML] : []),
  ];
  const router = engine ? routerCode(routing, src) : undefined;
  const imports = [
    ...(router ? [router.imports] : []),
    ...(names.length > 0 ? [`import { ${names.join(", ")} } from "${src}features";\n`] : []),
  ].join("");
  const features = (engine ?? [])
    .map((feature) => `${feature}: ${featureValue(feature)}`)
    .join(", ");
  const given = [
    ...(router ? [`  engine: servingEngine({ ${features} }, ${router.router}),\n`] : []),
    ...(xml ? [`  xml: ${XML},\n`] : []),
  ].join("");
  // Each key its own member: in an object literal, `"__proto__": …` would set the prototype.
  const members = Object.entries(cards ?? {}).map(
    ([id, card]) =>
      ` ${id === "__proto__" ? `["__proto__"]` : JSON.stringify(id)}: ${JSON.stringify(card)}`,
  );
  const routes = carded
    ? `\n// The sandbox's route of each operation it answers, planned by the build.\nconst SANDBOX_CARDS: Readonly<Record<string, string>> = {\n${members.join(",\n")}\n};\n`
    : "";
  return { imports, declared: `${router?.declared ?? ""}${routes}`, given };
}

/**
 * The generated module: the features' imports, and what the build made, as data. `src` is the
 * way from the module to src/ (`../` from src/generated/).
 */
export function generatedModule(
  build: {
    readonly needed: Needed;
    readonly built: BuiltDocuments;
    readonly routing?: Routing;
    readonly sandboxCards?: SandboxCards;
  },
  src = "../",
): string {
  const { imports, declared, given } = partsCode(
    build.needed,
    src,
    build.routing,
    build.sandboxCards,
  );
  return `// Written by src/build/contract.ts (npm run build:contract) from src/contract: do not edit.
// \`npm run build\`, \`wrangler dev\`, \`npm test\` and \`npm run typecheck\` write it again.
${imports}import type { BuiltDocuments } from "${src}platform/documents";

const built: BuiltDocuments = ${JSON.stringify(build.built, null, 1)};
${declared}
/** What src/index.ts passes to serveApp: what the build made, and the features the contract needs. */
export const BUILT = {
  built,
${given}} as const;
`;
}

/**
 * The module of a refused contract: loading it throws the build's line, so nothing bundled
 * from it can start, while the entry still type-checks (the features the contract needs are
 * there, so \`wrangler types\` still sees the Worker's exports).
 */
export function refusedModule(needed: Needed, reason: string): string {
  const { imports, given } = partsCode(needed, "../");
  return `// Written by src/build/contract.ts (npm run build:contract), which refused the contract:
// loading this module throws the same line, so no Worker starts from it.
${imports}import type { BuiltDocuments } from "../platform/documents";

const refused = (): never => {
  throw new Error(${JSON.stringify(reason)});
};

export const BUILT = {
  built: refused() as BuiltDocuments,
${given}} as const;
`;
}

/**
 * What the Worker entry re-exports: the sandbox's Durable Object class exactly when the
 * contract places an operation in the sandbox, which is when wrangler.toml's generated block
 * declares its binding (test/support/deployment.ts); a binding whose class the entry does
 * not export fails to deploy, and a class no binding names is not shipped. Built without
 * the store feature (`stored` false: nothing reads the records), the class is the resting one.
 */
export function entryExports(contract: Contract, stored: boolean): string {
  const header = `// Written by src/build/contract.ts (npm run build:contract) from src/contract: do not edit.
// The classes the Worker's bindings name, re-exported by src/index.ts.
`;
  if (!needsSandbox(contract)) return `${header}export {};\n`;
  const from = stored ? "../mocks/sandbox/durable-object" : "../mocks/sandbox/resting-store";
  return `${header}export { ${SANDBOX_CLASS} } from "${from}";\n`;
}
