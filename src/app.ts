/**
 * The app of a contract as the build and the tests make it: a contract the platform cannot
 * serve correctly is refused here, with one line, before the Worker is uploaded (the build
 * runs `prepareContract`: src/build/contract.ts) or when a test builds it; what the compiler
 * can see (a missing engine or converter) is refused before that, by the option types. The
 * app itself is composed by `composeApp` (src/serve-app.ts), as the deployed Worker is.
 */
import { type Contract, declaresXml } from "./contract-language/contract";
import type { AnyHandler, Handlers } from "./contract-language/define-handlers";
import {
  type NeedsEngine,
  type NeedsJsonSchema,
  type NeedsXml,
  needsEngine,
} from "./contract-language/needs";
import { INTERFACE_NOT_SPECIFIED, withPage } from "./contract-language/problem-catalogue";
import { type Verifier, type Verifiers, verifiedInCode } from "./contract-language/verifiers";
import type { BuildEngine } from "./platform/build-seam";
import { MAX_BODY_BYTES, platformDefaults } from "./platform/defaults";
import type { DocumentText, ReportDocuments, ServiceDocuments } from "./platform/documents";
import { STYLESHEET } from "./platform/html";
import {
  declaredSchemas,
  type JsonSchemaConverter,
  openapiDocument,
} from "./platform/openapi/document";
import { problemTypePage, reportTemplate } from "./platform/pages";
import { isHosted, type ProblemType } from "./platform/problem";
import { AS_IS } from "./platform/problem-presenter";
import { referenceBook } from "./platform/reference/page";
import { statusReport } from "./platform/status";
import type { XmlSchema } from "./platform/xml-seam";
import { composeApp, type EngineOption, type ServiceApp, type XmlOption } from "./serve-app";

export type { NeedsEngine, NeedsJsonSchema, NeedsXml, ServiceApp };

interface BaseOptions<C extends Contract> {
  /** Handlers by operation id; a declared operation without one answers 501 once its input is valid. */
  readonly handlers?: NoInfer<Handlers<C>>;
  /** Verifiers of part 5's schemes only code verifies (src/contract-language/verifiers.ts). */
  readonly verifiers?: NoInfer<Verifiers<C>>;
  /** The platform's body cap, in bytes, while part 8 declares none. */
  readonly maxBodyBytes?: number;
  /**
   * While part 4 declares nothing, answer its 501 and health before routing
   * (src/platform/fast-path.ts); on by default. Off only to compare the shortcut with the
   * routes it stands for.
   */
  readonly fastPath?: boolean;
}

/** zod's `toJSONSchema`: required exactly when the contract declares a schema. */
type JsonSchemaOption<C extends Contract> =
  NeedsJsonSchema<C> extends true
    ? { readonly jsonSchema: JsonSchemaConverter }
    : { readonly jsonSchema?: JsonSchemaConverter };

export type AppOptions<C extends Contract> = BaseOptions<C> &
  EngineOption<C, BuildEngine> &
  JsonSchemaOption<C> &
  XmlOption<C>;

/** What the build makes of a checked contract: everything the Worker serves as it is. */
export interface PreparedContract {
  readonly documents: ServiceDocuments<DocumentText>;
  /** The versions part 9 declares, each with an OpenAPI document of its own. */
  readonly versions: readonly string[];
  readonly xmlSchemas: readonly XmlSchema[];
  /**
   * What operations without a handler answer from under the `examples` setting, as JSON
   * text, with a line for each example left out of it, and cut by operation: made on first use.
   */
  readonly exampleBook: () => ReturnType<BuildEngine["exampleBook"]>;
}

/**
 * Builds the app of a contract: checks it (refusing, with one line, a contract the platform
 * could not serve as written), makes its documents (on first use) and composes the Worker
 * of it. The deployed Worker is composed by `serveApp` from what the build made with the
 * same checks and documents (`prepareContract`), so neither ships in it.
 */
export function createApp<C extends Contract>(
  contract: C,
  // The options may be left out only when every option is optional for this contract.
  ...[options = {} as AppOptions<C>]: Partial<AppOptions<C>> extends AppOptions<C>
    ? [options?: AppOptions<C>]
    : [options: AppOptions<C>]
): ServiceApp {
  const { engine, xml, maxBodyBytes = MAX_BODY_BYTES } = options;
  const prepared = prepareContract(contract, options);
  return composeApp(contract, {
    handlers: (options.handlers ?? {}) as Readonly<Record<string, AnyHandler | undefined>>,
    verifiers: (options.verifiers ?? {}) as Readonly<Record<string, Verifier | undefined>>,
    documents: prepared.documents,
    engine,
    present: engine?.presenter(contract) ?? AS_IS,
    xml,
    xmlSchemas: prepared.xmlSchemas,
    exampleBook: async () => prepared.exampleBook().text,
    maxBodyBytes,
    fastPath: options.fastPath !== false,
  });
}

/**
 * The checks of a contract and what follows from it alone: the build runs this before the
 * Worker is uploaded (src/build/contract.ts), and `createApp` when a test builds an app.
 * The OpenAPI documents and the report are made on first use.
 */
export function prepareContract<C extends Contract>(
  contract: C,
  options: AppOptions<C> | AppOptions<Contract>,
): PreparedContract {
  const {
    jsonSchema,
    engine,
    xml,
    maxBodyBytes = MAX_BODY_BYTES,
  } = options as AppOptions<Contract>;
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
      "the contract declares more than its purpose (parts 2 to 9): pass BUILD_ENGINE as the engine option",
    );
  }
  if (!xml && declaresXml(contract)) {
    throw new Error(
      "the contract declares an XML media type (part 4, or part 7's problem+xml): pass XML_CODEC (src/engine/xml/codec.ts) as the xml option",
    );
  }
  for (const id of Object.keys(handlers)) {
    if (!(id in contract.operations))
      throw new Error(`handler ${id}: no operation of that id is declared`);
  }
  for (const name of Object.keys(options.verifiers ?? {})) {
    const scheme = contract.securitySchemes[name];
    if (!scheme || !verifiedInCode(scheme))
      throw new Error(`verifier ${name}: part 5 declares no scheme of that name verified by code`);
  }
  engine?.check(contract);
  engine?.presenter(contract);
  const engineTypes = engine?.problemTypes(contract) ?? [];
  const problemTypes: ProblemType[] = [
    withPage(INTERFACE_NOT_SPECIFIED),
    ...engineTypes,
    ...(engine?.errorTypes(contract) ?? []),
  ];
  const xmlSchemas =
    engine && xml && jsonSchema ? engine.xmlSchemas(contract, jsonSchema, xml) : [];
  const implemented = new Set(Object.keys(handlers).filter((id) => handlers[id] !== undefined));
  const versions = engine?.versions(contract) ?? [];

  // Part 9: one document per version (`?version=`), the current one by default.
  const openapi = (version: string | undefined): DocumentText | undefined => {
    const chosen =
      version === undefined
        ? contract.versioning?.versions && engine
          ? engine.forVersion(contract, contract.versioning.current)
          : contract
        : engine?.forVersion(contract, version);
    const document =
      chosen &&
      openapiDocument(chosen, {
        jsonSchema,
        implemented,
        problemTypes,
        platformTypes: [withPage(INTERFACE_NOT_SPECIFIED), ...engineTypes],
        documenter: engine?.document,
      });
    return document && { body: JSON.stringify(document) };
  };
  const made = new Map<string | undefined, DocumentText | undefined>();
  const books = new Map<string | undefined, { index: DocumentText; pages: DocumentText[] }>();
  let report: ReportDocuments | undefined;
  const reportOf = (): ReportDocuments => {
    if (report) return report;
    const defaults = platformDefaults(maxBodyBytes);
    const placements = engine?.placements(contract);
    const made = statusReport(
      contract,
      defaults,
      undefined,
      undefined,
      implemented,
      undefined,
      placements,
      madeAnswers(exampleBook().text),
    );
    const sections = engine?.pageSections(contract);
    report = { report: made, page: reportTemplate(made, problemTypes, sections) };
    return report;
  };
  const documents: ServiceDocuments<DocumentText> = {
    openapi(version) {
      if (!made.has(version)) made.set(version, openapi(version));
      return made.get(version);
    },
    // The reference of a version: its document, written out for people, on one page or
    // an index and the pages it continues on.
    reference(version, page = 0) {
      if (!books.has(version)) {
        const document = documents.openapi(version);
        if (!document) return undefined;
        const { versions } = reportOf().report;
        const shown = version ?? contract.versioning?.current ?? "";
        const made = referenceBook(JSON.parse(document.body), {
          versions,
          shown,
          ...(version === undefined ? {} : { version }),
        });
        books.set(version, {
          index: { body: made.index },
          pages: made.pages.map((body) => ({ body })),
        });
      }
      const book = books.get(version);
      return page === 0 ? book?.index : book?.pages[page - 1];
    },
    report: async () => reportOf(),
    problemPages: new Map(
      problemTypes.filter(isHosted).map((t) => [t.slug, { body: problemTypePage(t) }]),
    ),
    stylesheet: { body: STYLESHEET },
  };
  let book: ReturnType<PreparedContract["exampleBook"]> | undefined;
  const exampleBook = () => {
    book ??=
      engine && jsonSchema
        ? engine.exampleBook(contract, jsonSchema, implemented)
        : // Nothing to make an answer's value from: each answers 501 under the setting too.
          { text: "{}", findings: [], chapters: () => [] };
    return book;
  };
  return { documents, versions, xmlSchemas, exampleBook };
}

/**
 * The answers of the example book made rather than taken from the document (issue 44): each
 * media type of an answer with no example of its own that can be answered, by operation.
 */
function madeAnswers(text: string): ReadonlyMap<string, readonly string[]> {
  // What the report reads of the book (src/engine/example-book.ts, `ExampleBook`).
  type Media = {
    readonly examples: readonly string[];
    readonly unmade?: true;
    readonly madeBytes?: true;
  };
  type Answers = Readonly<Record<string, { readonly content: Readonly<Record<string, Media>> }>>;
  const book = JSON.parse(text) as {
    readonly operations?: Readonly<Record<string, readonly Answers[]>>;
  };
  const made = new Map<string, string[]>();
  for (const [id, shapes] of Object.entries(book.operations ?? {}))
    for (const [key, answer] of Object.entries(shapes[0] ?? {}))
      for (const [type, media] of Object.entries(answer.content))
        if (media.examples.length === 0 && !media.unmade)
          made.set(id, [
            ...(made.get(id) ?? []),
            `${key} ${type}${media.madeBytes ? " (bytes made for it)" : ""}`,
          ]);
  return made;
}
