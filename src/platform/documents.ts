/**
 * The documents the platform serves that follow from the contract alone: the OpenAPI
 * document of each version, the status report and its page as far as the contract decides
 * them, and the page of each problem type. The build makes them (src/build/contract.ts, on
 * `npm run build`, `wrangler dev` and `npm test`), so the Worker serves them as they are and
 * ships neither the converter nor the documenter; `createApp` makes the same ones itself
 * for a test.
 */
import type { ReportTemplate } from "./pages";
import type { StatusReport } from "./status";
import type { XmlSchema } from "./xml-seam";

/** A document's text, and its strong entity tag (RFC 9110 §8.8.3) where it is known already. */
export interface ServedDocument {
  readonly body: string;
  readonly etag?: string;
}

/** The status report and its page, before the deployment's part of them is added. */
export interface ReportDocuments {
  readonly report: StatusReport;
  readonly page: ReportTemplate;
}

/** What `/_service` serves of the contract, each made once. */
export interface ServiceDocuments {
  /**
   * The OpenAPI document of the current version (`undefined`) or of a version part 9
   * declares; undefined for a version it does not.
   */
  readonly openapi: (version: string | undefined) => ServedDocument | undefined;
  readonly report: () => ReportDocuments;
  /** The page of each problem type hosted here, by slug. */
  readonly problemPages: ReadonlyMap<string, string>;
}

/** The same, as the build writes them: plain data, with what the engine needs of XML. */
export interface BuiltDocuments {
  readonly openapi: {
    readonly current: ServedDocument;
    readonly versions: Readonly<Record<string, ServedDocument>>;
  };
  readonly report: StatusReport;
  readonly reportPage: ReportTemplate;
  readonly problemPages: Readonly<Record<string, string>>;
  readonly xmlSchemas: readonly XmlSchema[];
  /**
   * What operations without a handler answer from under the `examples` setting (the engine's
   * example book, src/engine/examples/book.ts), as JSON text: read on its first use only.
   */
  readonly exampleBook: string;
}

/** The documents the build made, served as they are. */
export function servedDocuments(built: BuiltDocuments): ServiceDocuments {
  const { current, versions } = built.openapi;
  const report = { report: built.report, page: built.reportPage };
  return {
    // Own keys only: a version asked for is never looked up on Object.prototype.
    openapi: (version) =>
      version === undefined
        ? current
        : Object.hasOwn(versions, version)
          ? versions[version]
          : undefined,
    report: () => report,
    problemPages: new Map(Object.entries(built.problemPages)),
  };
}
