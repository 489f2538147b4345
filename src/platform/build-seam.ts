/**
 * The build's seam between the platform and the operation engine: what the build (and the
 * tests, through `createApp`) asks of the engine besides serving (./worker-seam.ts), decided
 * before the Worker is uploaded. The Worker ships none of it.
 */
import type { Contract } from "../contract-language/contract";
import type { CataloguedProblem } from "../contract-language/problem-catalogue";
import type { SafeHtml } from "./html";
import type { ContractDocumenter, JsonSchemaConverter } from "./openapi/document";
import type { ProblemType } from "./problem";
import type { SandboxStatus } from "./status";
import type { WorkerEngine } from "./worker-seam";
import type { XmlCodec, XmlSchema } from "./xml-seam";

/**
 * The engine as the build runs it (and the tests, through `createApp`): the engine that
 * serves, and what is decided before the Worker is uploaded: the checks that refuse a
 * contract that cannot work, the OpenAPI documentation, the problem types and the pages.
 */
export interface BuildEngine extends WorkerEngine {
  /** Part 6's deliveries and destinations, whatever the contract: the build's engine has every part. */
  readonly consume: NonNullable<WorkerEngine["consume"]>;
  readonly destinations: NonNullable<WorkerEngine["destinations"]>;
  /** Refuses declarations that could not be served as written. */
  readonly check: (contract: Contract) => void;
  /** Documents what the contract declares with schemas in the OpenAPI document. */
  readonly document: ContractDocumenter;
  /** The problem types parts 4, 5 and 8 bring, once they declare what causes them. */
  readonly problemTypes: (contract: Contract) => CataloguedProblem[];
  /** The contract as one version of part 9 has it; undefined for a version it does not declare. */
  readonly forVersion: (contract: Contract, version: string) => Contract | undefined;
  /** The versions part 9 declares, each with a document of its own. */
  readonly versions: (contract: Contract) => readonly string[];
  /** The interface page's sections for what the contract declares (part 3's diagrams). */
  readonly pageSections: (contract: Contract) => SafeHtml;
  /** Where the sandbox places each operation, and why (src/mocks/sandbox/place.ts), by id. */
  readonly placements: (contract: Contract) => ReadonlyMap<string, SandboxStatus>;
  /** Part 7's error types, as problem types (refusing those that could not be served). */
  readonly errorTypes: (contract: Contract) => ProblemType[];
  /**
   * The JSON Schema of each schema an XML media type declares, in the order the engine
   * walks the contract; the codec refuses, naming the operation, an `xml` object XML cannot
   * be written by.
   */
  readonly xmlSchemas: (
    contract: Contract,
    jsonSchema: JsonSchemaConverter,
    codec: XmlCodec,
  ) => XmlSchema[];
  /**
   * What the operations `handled` does not name answer from under the `examples` setting, as
   * JSON text, and one line for each example that does not match its schema (left out, and
   * reported when the Worker is built); `chapters`, the same cut by operation, in the
   * contract's order (undefined for one with a handler): what a deployment reads, one
   * operation's at a time.
   */
  readonly exampleBook: (
    contract: Contract,
    jsonSchema: JsonSchemaConverter,
    handled: ReadonlySet<string>,
  ) => {
    readonly text: string;
    readonly findings: readonly string[];
    readonly chapters: () => readonly (string | undefined)[];
  };
}
