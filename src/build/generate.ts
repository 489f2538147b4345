/**
 * What the build makes of a contract (src/build/contract.ts): the contract checked, with the
 * engine parts it needs (and only those: the serving engine with the parts the contract uses,
 * and the examples' answers while an operation has no handler, src/engine/parts.ts, the JWT
 * verifier, the XML codec), its documents made and tagged, the example book, and the module
 * the Worker entry imports them from.
 */
import { toJSONSchema } from "zod/mini";
import { type AppOptions, type PreparedContract, prepareContract } from "../app";
import { type Contract, declaresXml } from "../contract-language/contract";
import type { AnyHandler } from "../contract-language/define-handlers";
import { needsEngine, needsJwt } from "../contract-language/needs";
import { defaultRouter, OPERATION_ENGINE } from "../engine";
import { SECURITY_PART } from "../engine/authentication/authenticate";
import { SIGNATURES_PART } from "../engine/authentication/aws-sigv4";
import { INTROSPECTION_PART } from "../engine/authentication/introspection";
import { JWT_VERIFIER } from "../engine/authentication/verify-jwt";
import { ERROR_MODEL_PART } from "../engine/error-model";
import { EVENTS_PART } from "../engine/events/part";
import { RATE_LIMITS_PART } from "../engine/limits/enforce";
import { EXAMPLES_PART } from "../engine/operations/examples";
import { type EnginePart, engineParts } from "../engine/parts";
import { FORMS_PART } from "../engine/request/forms";
import { SANDBOX_PART } from "../engine/sandbox/answer";
import { needsSandbox } from "../engine/sandbox/place";
import { SANDBOX_CLASS } from "../engine/sandbox/records";
import { STORE_PART } from "../engine/sandbox/store";
import { type EngineParts, servingEngine } from "../engine/serving";
import { STATES_PART } from "../engine/states/transition";
import { VERSIONS_PART } from "../engine/versions/negotiate";
import { XML_CODEC } from "../engine/xml/codec";
import type {
  BuiltDocuments,
  ByVersion,
  DocumentAsset,
  DocumentText,
  ReportDocuments,
} from "../platform/documents";
import type { JwtVerifier, OperationEngine, XmlCodec } from "../platform/engine-seam";
import { entityTag } from "../platform/etag";
import { withDeployment } from "../platform/status";
import { preparedCode, type Routing, routerOf, routingOf } from "./routing";

/** A part of the serving engine, with the module (under src/) that exports it. */
interface PartModule<V> {
  readonly name: string;
  readonly from: string;
  readonly value: V;
}

/** Each part of the serving engine, for the generated module's imports and for tests. */
const SERVING: { readonly [P in EnginePart]-?: PartModule<NonNullable<EngineParts[P]>> } = {
  versions: { name: "VERSIONS_PART", from: "engine/versions/negotiate", value: VERSIONS_PART },
  rateLimits: { name: "RATE_LIMITS_PART", from: "engine/limits/enforce", value: RATE_LIMITS_PART },
  security: {
    name: "SECURITY_PART",
    from: "engine/authentication/authenticate",
    value: SECURITY_PART,
  },
  introspection: {
    name: "INTROSPECTION_PART",
    from: "engine/authentication/introspection",
    value: INTROSPECTION_PART,
  },
  signatures: {
    name: "SIGNATURES_PART",
    from: "engine/authentication/aws-sigv4",
    value: SIGNATURES_PART,
  },
  states: { name: "STATES_PART", from: "engine/states/transition", value: STATES_PART },
  events: { name: "EVENTS_PART", from: "engine/events/part", value: EVENTS_PART },
  errorModel: { name: "ERROR_MODEL_PART", from: "engine/error-model", value: ERROR_MODEL_PART },
  forms: { name: "FORMS_PART", from: "engine/request/forms", value: FORMS_PART },
  // While an operation has no handler: its answers under the `examples` setting.
  examples: { name: "EXAMPLES_PART", from: "engine/operations/examples", value: EXAMPLES_PART },
  // Where the sandbox places an operation: its store, for handlers and the reset route.
  store: { name: "STORE_PART", from: "engine/sandbox/store", value: STORE_PART },
  // While an operation it places has no handler: its answers under the `sandbox` setting.
  sandbox: { name: "SANDBOX_PART", from: "engine/sandbox/answer", value: SANDBOX_PART },
};

const JWT: PartModule<JwtVerifier> = {
  name: "JWT_VERIFIER",
  from: "engine/authentication/verify-jwt",
  value: JWT_VERIFIER,
};
const XML: PartModule<XmlCodec> = { name: "XML_CODEC", from: "engine/xml/codec", value: XML_CODEC };

/** What a Worker of the contract is given: the serving engine with its parts, the JWT verifier, the XML codec. */
export interface Needed {
  /** The serving engine's parts; undefined when the contract needs no engine at all. */
  readonly engine: readonly EnginePart[] | undefined;
  readonly jwt: boolean;
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
}

/**
 * What `contract` with `handlers` needs: exactly what the option types of `serveApp` and the
 * engine's mount require, and the examples part while an operation has no handler.
 */
export function neededParts(
  contract: Contract,
  handlers: Readonly<Record<string, AnyHandler | undefined>>,
  unhandledAnswers = true,
): Needed {
  return {
    engine: needsEngine(contract) ? engineParts(contract, handlers, unhandledAnswers) : undefined,
    jwt: needsJwt(contract),
    xml: declaresXml(contract),
  };
}

/**
 * The options `serveApp` is given for `needed`, as the generated module gives them: the
 * engine routes with `routing`'s router, or Hono's default pair when none is given.
 */
export function servedParts(
  needed: Needed,
  routing?: Routing,
): {
  engine?: OperationEngine;
  jwt?: JwtVerifier;
  xml?: XmlCodec;
} {
  const { engine, jwt, xml } = needed;
  const parts = (engine ?? []).map((p) => [p, SERVING[p].value]);
  return {
    ...(engine
      ? {
          engine: servingEngine(
            Object.fromEntries(parts),
            routing ? routerOf(routing) : defaultRouter,
          ),
        }
      : {}),
    ...(jwt ? { jwt: JWT.value } : {}),
    ...(xml ? { xml: XML.value } : {}),
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
  return checkedWith(contract, handlers, neededParts(contract, handlers, unhandledAnswers));
}

function checkedWith(
  contract: Contract,
  handlers: Readonly<Record<string, AnyHandler | undefined>>,
  needed: Needed,
): PreparedContract {
  // Checked and documented with the whole engine, as `createApp` does.
  const options = {
    handlers,
    ...(needed.engine ? { engine: OPERATION_ENGINE, jsonSchema: toJSONSchema } : {}),
    ...(needed.jwt ? { jwt: JWT.value } : {}),
    ...(needed.xml ? { xml: XML.value } : {}),
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
  const needed = neededParts(contract, handlers, unhandledAnswers);
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
  const { engine } = servedParts(needed);
  return {
    needed,
    ...(engine ? { routing: routingOf(contract, handlers, engine, built) } : {}),
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
): { imports: string; declared: string; given: string } {
  const { engine, jwt, xml } = needed;
  const modules: PartModule<unknown>[] = [
    ...(engine ?? []).map((part) => SERVING[part]),
    ...(jwt ? [JWT] : []),
    ...(xml ? [XML] : []),
  ];
  const router = engine ? routerCode(routing, src) : undefined;
  const imports = [
    ...(engine ? [`import { servingEngine } from "${src}engine/serving";\n`] : []),
    ...(router ? [router.imports] : []),
    ...modules.map(({ name, from }) => `import { ${name} } from "${src}${from}";\n`),
  ].join("");
  const parts = (engine ?? []).map((part) => `${part}: ${SERVING[part].name}`).join(", ");
  const given = [
    ...(router ? [`  engine: servingEngine({ ${parts} }, ${router.router}),\n`] : []),
    ...(jwt ? [`  jwt: ${JWT.name},\n`] : []),
    ...(xml ? [`  xml: ${XML.name},\n`] : []),
  ].join("");
  return { imports, declared: router?.declared ?? "", given };
}

/**
 * The generated module: the parts' imports, and what the build made, as data. `src` is the
 * way from the module to src/ (`../` from src/generated/).
 */
export function generatedModule(
  build: { readonly needed: Needed; readonly built: BuiltDocuments; readonly routing?: Routing },
  src = "../",
): string {
  const { imports, declared, given } = partsCode(build.needed, src, build.routing);
  return `// Written by src/build/contract.ts (npm run build:contract) from src/contract: do not edit.
// \`npm run build\`, \`wrangler dev\`, \`npm test\` and \`npm run typecheck\` write it again.
${imports}import type { BuiltDocuments } from "${src}platform/documents";

const built: BuiltDocuments = ${JSON.stringify(build.built, null, 1)};
${declared}
/** What src/index.ts passes to serveApp: what the build made, and the parts the contract needs. */
export const BUILT = {
  built,
${given}} as const;
`;
}

/**
 * The module of a refused contract: loading it throws the build's line, so nothing bundled
 * from it can start, while the entry still type-checks (the parts the contract needs are
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
 * the store part (`stored` false: nothing reads the records), the class is the resting one.
 */
export function entryExports(contract: Contract, stored: boolean): string {
  const header = `// Written by src/build/contract.ts (npm run build:contract) from src/contract: do not edit.
// The classes the Worker's bindings name, re-exported by src/index.ts.
`;
  if (!needsSandbox(contract)) return `${header}export {};\n`;
  const from = stored ? "../engine/sandbox/durable-object" : "../engine/sandbox/resting-store";
  return `${header}export { ${SANDBOX_CLASS} } from "${from}";\n`;
}
