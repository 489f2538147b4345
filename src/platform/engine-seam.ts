/**
 * The seam between the platform and the operation engine. The platform serves any
 * contract on its own while it declares nothing to serve and no schema; once it does
 * (operations, security schemes, limits, resources, events, error types with members or
 * that present the platform's failures), the app needs an engine of this shape
 * (`src/engine/`), passed in by whoever builds the app, so a Worker that declares nothing
 * does not ship it.
 */
import type { Hono } from "hono";
import type { Router } from "hono/router";
import type { H, RouterRoute } from "hono/types";
import type { Contract, JwtVerification } from "../contract-language/contract";
import type { AnyHandler } from "../contract-language/define-handlers";
import type { CataloguedProblem } from "../contract-language/problem-catalogue";
import type { Verifier } from "../contract-language/verifiers";
import type { AppEnv } from "./env";
import type { SafeHtml } from "./html";
import type { ContractDocumenter, JsonSchemaConverter } from "./openapi/document";
import type { ProblemType } from "./problem";
import type { ProblemPresenter } from "./problem-presenter";
import type { Answering, SandboxStatus } from "./status";
import type { XmlCodec, XmlSchema } from "./xml-seam";

export type { XmlCodec, XmlMapping, XmlNames, XmlRead, XmlSchema } from "./xml-seam";

/** What verifying a bearer JWT concluded. */
export type JwtOutcome =
  | {
      readonly kind: "valid";
      readonly issuer: string;
      readonly subject: string | undefined;
      readonly scopes: readonly string[];
      /** The token's string claims (STORE_TENANCY's `claim:<name>` reads one). */
      readonly claims: Readonly<Record<string, string>>;
    }
  /** Not a token this deployment accepts: the same 401 as a missing one. */
  | { readonly kind: "invalid" }
  /**
   * The key set could not be fetched or read: nothing can be said of the token. `reason` is
   * for the log; `retryAfter` (seconds) is when the key set's host will be asked again.
   */
  | { readonly kind: "unavailable"; readonly reason: string; readonly retryAfter?: number }
  /** The vars the scheme names are not set, or not usable. */
  | { readonly kind: "misconfigured"; readonly reason: string };

/**
 * Where a JWT scheme's keys come from: a key set fetched from an `https:` URL, or the key
 * set itself (a JWK Set, RFC 7517 §5) given in the deployment's configuration, which is how
 * a local issuer is trusted in development and how a deployment pins its keys.
 */
export type KeySetSource =
  | { readonly url: URL }
  | { readonly keys: readonly Readonly<Record<string, unknown>>[] };

/** The deployment's key set, issuer and audience for one JWT scheme. */
export interface JwtSettings {
  readonly keySet: KeySetSource;
  readonly issuer: string;
  readonly audience: string;
}

/**
 * Verifies a bearer JWT (src/engine/authentication/verify-jwt.ts, with jose). Passed to the app only when part 5
 * declares a JWT scheme, so a Worker without one does not ship the library. `background`
 * is the request's `ExecutionContext.waitUntil`, so a key set can be refreshed ahead of its
 * expiry without the request waiting for it.
 */
export type JwtVerifier = (
  token: string,
  verification: JwtVerification,
  settings: JwtSettings,
  background?: (work: Promise<unknown>) => void,
) => Promise<JwtOutcome>;

/** What the app gives the engine to mount the operations with. */
export interface MountContext {
  readonly contract: Contract;
  readonly handlers: Readonly<Record<string, AnyHandler | undefined>>;
  /** The body cap where part 8 declares none. */
  readonly maxBodyBytes: number;
  /** How part 7 presents the platform's failures. */
  readonly present: ProblemPresenter;
  /** The JWT verifier, when part 5 declares a JWT scheme. */
  readonly jwt: JwtVerifier | undefined;
  /** The deployment's verifiers of part 5's schemes only code verifies, by scheme name. */
  readonly verifiers?: Readonly<Record<string, Verifier | undefined>>;
  /** The XML codec, when an operation declares an XML media type. */
  readonly xml: XmlCodec | undefined;
  /**
   * The JSON Schema of each schema an XML media type declares, made when the Worker was
   * built (`ContractEngine.xmlSchemas`), in the order the engine walks the contract.
   */
  readonly xmlSchemas: readonly XmlSchema[];
  /**
   * What the operation at `position` (its place in the contract, from 0) answers from under
   * the `examples` setting, made when the Worker was built (`ContractEngine.exampleBook`), as
   * the JSON text of a book that holds it: asked for on its first answer that needs it, never
   * when the Worker starts; undefined when the deployment cannot read it (its static assets).
   */
  readonly exampleBook: (env: unknown, position: number) => Promise<string | undefined>;
}

/** What the engine needs of a Queue message (the runtime's `Message`). */
export interface QueuedMessage {
  readonly id: string;
  readonly body: unknown;
  readonly attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

/**
 * The operation engine as the Worker runs it: what serves the contract's operations. What
 * only the build needs (the checks, the documentation) is `ContractEngine`'s, so the Worker
 * does not ship it.
 */
export interface OperationEngine {
  /**
   * The router of an app with operations: routing runs on every request, so the engine
   * brings the faster one, whose code a Worker without operations does not ship.
   */
  readonly router: () => Router<[H, RouterRoute]>;
  /** Mounts the routes of part 4's operations, with parts 5 and 8 enforced on them. */
  readonly mount: (app: Hono<AppEnv>, context: MountContext) => void;
  /** How part 7 presents the platform's failures (its error model). */
  readonly presenter: (contract: Contract) => ProblemPresenter;
  /** Part 6's deliveries: the Worker's `queue()` handler, for the events queue; with part 6 only. */
  readonly consume?: (
    batch: { readonly messages: readonly QueuedMessage[] },
    env: Readonly<Record<string, unknown>>,
  ) => Promise<void>;
  /** How many destinations the deployment's bindings give each of part 6's events; with part 6 only. */
  readonly destinations?: (env: unknown) => (event: string) => number;
  /** How the deployment's setting answers operations without a handler, for the status report. */
  readonly answering: (env: unknown) => Answering;
  /** `DELETE /_service/sandbox`: empties the caller's sandbox (src/engine/sandbox/reset.ts). */
  readonly sandboxReset?: (contract: Contract, jwt: JwtVerifier | undefined) => SandboxResetRoute;
}

/** The sandbox's reset route, and whether the contract has a sandbox (decided on first use). */
export interface SandboxResetRoute {
  readonly enabled: () => boolean;
  readonly reset: H;
}

/**
 * The engine as the build runs it (and the tests, through `createApp`): the engine that
 * serves, and what is decided before the Worker is uploaded: the checks that refuse a
 * contract that cannot work, the OpenAPI documentation, the problem types and the pages.
 */
export interface ContractEngine extends OperationEngine {
  /** Part 6's deliveries and destinations, whatever the contract: the build's engine has every part. */
  readonly consume: NonNullable<OperationEngine["consume"]>;
  readonly destinations: NonNullable<OperationEngine["destinations"]>;
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
  /** Where the sandbox places each operation, and why (src/engine/sandbox/place.ts), by id. */
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
