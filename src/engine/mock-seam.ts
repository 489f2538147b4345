/**
 * The seam the mocks (src/mocks/README.md) see the engine through: what the engine asks of
 * them (./mock-features.ts, and the examples' answer), the types of the serving path they
 * build on (the exchange, the security plan), and what the build's engine (index.ts) is
 * given of them by src/build-engine.ts. Types only, so it costs a bundle nothing. The engine
 * imports nothing of src/mocks/; the mocks import of the engine only this file, what a
 * schema, a refusal and an example book are (zod/, refusal.ts, example-book.ts), and two
 * functions: an answer's status plan and the document's schemas (for the build's book), so
 * the Node tools that make values load nothing of the serving path
 * (test/service/architecture.node.test.ts).
 */
import type { Contract } from "../contract-language/contract";
import type { BuildEngine } from "../platform/build-seam";
import type { JsonSchemaConverter } from "../platform/openapi/document";
import type { ExampleBook } from "./example-book";
import type { SandboxFeature, SandboxMarks, StoreFeature } from "./mock-features";
import type { ExamplesFeature } from "./operations/model";

export type { SandboxResetRoute } from "../platform/worker-seam";
export type { Identity, SecurityFeature } from "./authentication/authenticate";
export type { IntrospectionFeature } from "./authentication/introspection";
export type { SecurityPlan } from "./authentication/plan";
export type { JwtVerifier } from "./authentication/verify-jwt";
export type {
  SandboxCaller,
  SandboxFeature,
  SandboxMarks,
  StoreCaller,
  StoreFeature,
} from "./mock-features";
export type { Convert } from "./openapi/schemas";
export type { ExamplesFeature, Exchange, Outcome } from "./operations/model";

/**
 * What the build's engine (index.ts) is given of the mocks by src/build-engine.ts: their
 * features, where the sandbox places each operation, the example book of the operations
 * `handled` does not name (and one line per example left out of it), and what the document
 * says of the sandbox's operations.
 */
export interface BuildMocks {
  readonly examples: ExamplesFeature;
  readonly store: StoreFeature;
  readonly sandbox: SandboxFeature;
  readonly placements: BuildEngine["placements"];
  readonly exampleBook: (
    contract: Contract,
    jsonSchema: JsonSchemaConverter,
    handled: ReadonlySet<string>,
  ) => { readonly book: ExampleBook; readonly findings: readonly string[] };
  readonly sandboxMarks: (contract: Contract) => SandboxMarks;
}
