/**
 * The documents the platform serves that follow from the contract alone: the OpenAPI
 * document of each version and its API reference page, the status report and its page as
 * far as the contract decides them, and the page of each problem type. The build makes them
 * (src/build/contract.ts, on `npm run build`, `wrangler dev` and `npm test`), so the Worker
 * serves them as they are and ships neither the converter nor the documenter; `createApp`
 * makes the same ones itself for a test.
 */
import type { ReportTemplate } from "./pages";
import type { StatusReport } from "./status";
import type { XmlSchema } from "./xml-seam";

/** A document's text, and its strong entity tag (RFC 9110 §8.8.3) where it is known already. */
export interface DocumentText {
  readonly body: string;
  readonly etag?: string;
}

/**
 * A document the build wrote among the Worker's static assets (`[assets]` in wrangler.toml,
 * read through the `ASSETS` binding) rather than into its script: its path there, and its
 * entity tag, so a revalidation is answered without reading it.
 */
export interface DocumentAsset {
  readonly asset: string;
  readonly etag?: string;
}

/** A document as the platform serves it: its text in the script, or a static asset. */
export type ServedDocument = DocumentText | DocumentAsset;

/** The status report and its page, before the deployment's part of them is added. */
export interface ReportDocuments {
  readonly report: StatusReport;
  readonly page: ReportTemplate;
}

/** What `/_service` serves of the contract, each made once (as text, or static assets too). */
export interface ServiceDocuments<D extends ServedDocument = ServedDocument> {
  /**
   * The OpenAPI document of the current version (`undefined`) or of a version part 9
   * declares; undefined for a version it does not.
   */
  readonly openapi: (version: string | undefined) => D | undefined;
  /**
   * The API reference of the same version (src/platform/reference): its first page (`page`
   * 0 or none) and the pages a large one continues on, from 1; undefined likewise, and for
   * a page it does not have.
   */
  readonly reference: (version: string | undefined, page?: number) => D | undefined;
  /** Undefined when the deployment cannot read them (its static assets), for a 503. */
  readonly report: (env: unknown) => Promise<ReportDocuments | undefined>;
  /** The report's JSON as a deployment of the defaults serves it, where the build made it. */
  readonly defaultReport?: DefaultReport<D>;
  /** The page of each problem type hosted here, by slug. */
  readonly problemPages: ReadonlyMap<string, D>;
  /** The stylesheet every page links to (`/_service/style.css`). */
  readonly stylesheet: D;
}

/**
 * The status report's JSON as a deployment with the platform's defaults serves it: no event
 * has a destination, CORS is off, and operations without a handler answer 501 (what a
 * production deployment keeps). The build writes it, so such a deployment serves the
 * report as it serves the OpenAPI document, without reading and writing it again in each
 * isolate; any other deployment's report is made from the report as before.
 */
interface DefaultReport<D extends ServedDocument = ServedDocument> {
  readonly document: D;
  /** Part 6's events, whose destinations the deployment may give (each must have none). */
  readonly events: readonly string[];
}

/** A document of the current version, and of each version part 9 declares. */
export interface ByVersion<D extends ServedDocument = ServedDocument> {
  readonly current: D;
  readonly versions: Readonly<Record<string, D>>;
}

/** The document of a version asked for: own keys only, never one of Object.prototype. */
function byVersion<D extends ServedDocument>(
  documents: ByVersion<D>,
  version: string | undefined,
): D | undefined {
  if (version === undefined) return documents.current;
  return Object.hasOwn(documents.versions, version) ? documents.versions[version] : undefined;
}

/** The same, as the build writes them: plain data, with what the engine needs of XML. */
export interface BuiltDocuments<D extends ServedDocument = ServedDocument> {
  readonly openapi: ByVersion<D>;
  /** The API reference page of each version, like the OpenAPI documents. */
  readonly reference: ByVersion<D>;
  /** The pages a large reference continues on (src/platform/reference/page.ts), by version. */
  readonly referencePages?: {
    readonly current: readonly D[];
    readonly versions: Readonly<Record<string, readonly D[]>>;
  };
  /** The status report and its page: as they are, or an asset of their JSON. */
  readonly report: ReportDocuments | DocumentAsset;
  readonly defaultReport?: DefaultReport<D>;
  readonly problemPages: Readonly<Record<string, D>>;
  readonly stylesheet: D;
  readonly xmlSchemas: readonly XmlSchema[];
  /**
   * What operations without a handler answer from under the `examples` setting (the engine's
   * example book, src/engine/example-book.ts), as JSON text, an asset of it, or the assets
   * of its chapters (one per operation). It grows with the API, so it stays out of the script
   * like the documents, and a deployment reads one operation's chapter, on its first use.
   */
  readonly exampleBook: D | ExampleChapters;
}

/**
 * The example book cut by operation, as the build moves it to static assets: the operation
 * at position `n` of the contract (from 0) answers from `${chapters}${n + 1}.json`.
 */
interface ExampleChapters {
  readonly chapters: string;
}

/** The text of the example book that holds the operation at `position`, as `documentText`. */
export function exampleText(
  env: unknown,
  book: ServedDocument | ExampleChapters,
  position: number,
): Promise<string | undefined> {
  return documentText(
    env,
    "chapters" in book ? { asset: `${book.chapters}${position + 1}.json` } : book,
  );
}

/** The documents the build made, served as they are. */
export function servedDocuments(built: BuiltDocuments): ServiceDocuments {
  const { report } = built;
  // Read once per isolate: they change only with a deployment.
  let read: Promise<ReportDocuments | undefined> | undefined;
  return {
    openapi: (version) => byVersion(built.openapi, version),
    reference: (version, page = 0) => {
      if (page === 0) return byVersion(built.reference, version);
      const pages = built.referencePages;
      const of =
        version === undefined
          ? pages?.current
          : pages && Object.hasOwn(pages.versions, version)
            ? pages.versions[version]
            : undefined;
      return of?.[page - 1];
    },
    report: async (env) => {
      if (!("asset" in report)) return report;
      read ??= assetJson<ReportDocuments>(env, report);
      const documents = await read;
      // Not kept when unread: the next request tries again, once the deployment is fixed.
      if (documents === undefined) read = undefined;
      return documents;
    },
    problemPages: new Map(Object.entries(built.problemPages)),
    stylesheet: built.stylesheet,
    ...(built.defaultReport ? { defaultReport: built.defaultReport } : {}),
  };
}

/** The bindings a static asset is read through (`[assets]` binding in wrangler.toml). */
interface AssetsEnv {
  readonly ASSETS?: { fetch(request: Request): Promise<Response> };
}

/** Said once per isolate: a deployment without the binding serves no document (fails closed). */
let unreadLogged = false;

/**
 * The answer of the static asset at `asset`, or undefined when it cannot be read: the
 * deployment lacks the `ASSETS` binding or the build's assets (logged once). The asset's
 * origin is never the request's, so only the path is asked for.
 */
async function readAsset(env: unknown, asset: string): Promise<Response | undefined> {
  const assets = (env as AssetsEnv | undefined)?.ASSETS;
  const answer = await assets?.fetch(new Request(`https://assets.invalid${asset}`));
  if (answer?.ok) return answer;
  if (!unreadLogged) {
    unreadLogged = true;
    console.error(
      JSON.stringify({
        level: "error",
        message: assets
          ? "a document the build made is missing from the static assets; rebuild and deploy"
          : "the ASSETS binding is missing: the documents the build made cannot be served",
        asset,
        ...(answer ? { status: answer.status } : {}),
      }),
    );
  }
  await answer?.body?.cancel();
  return undefined;
}

/** A document's text, or undefined when its asset cannot be read (`readAsset`). */
async function documentText(env: unknown, document: ServedDocument): Promise<string | undefined> {
  if ("body" in document) return document.body;
  const answer = await readAsset(env, document.asset);
  return answer?.text();
}

/** A static asset's JSON, or undefined when it cannot be read (`readAsset`). */
async function assetJson<T>(env: unknown, document: DocumentAsset): Promise<T | undefined> {
  const answer = await readAsset(env, document.asset);
  return answer && ((await answer.json()) as T);
}

/**
 * A document's body: its text, or the static asset's bytes streamed as they are (no
 * per-request decoding, however large); undefined when the asset cannot be read
 * (`readAsset`), for the caller to answer 503 (RFC 9110 §15.6.4).
 */
export async function documentBody(
  env: unknown,
  document: ServedDocument,
): Promise<BodyInit | undefined> {
  if ("body" in document) return document.body;
  const answer = await readAsset(env, document.asset);
  return answer && (answer.body ?? "");
}
