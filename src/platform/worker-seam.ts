/**
 * The Worker's seam between the platform and the operation engine: what the deployed
 * Worker's engine (src/engine/serving.ts) does for the platform. The platform serves any
 * contract on its own while it declares nothing to serve and no schema; once it does
 * (operations, security schemes, limits, resources, events, error types with members or
 * that present the platform's failures), the app needs an engine of this shape, passed in
 * by whoever builds the app, so a Worker that declares nothing does not ship it. What the
 * build asks of the engine besides is ./build-seam.ts.
 */
import type { Hono } from "hono";
import type { Router } from "hono/router";
import type { H, RouterRoute } from "hono/types";
import type { Contract } from "../contract-language/contract";
import type { AnyHandler } from "../contract-language/define-handlers";
import type { Verifier } from "../contract-language/verifiers";
import type { AppEnv } from "./env";
import type { ProblemPresenter } from "./problem-presenter";
import type { Answering } from "./status";
import type { XmlCodec, XmlSchema } from "./xml-seam";

/** What the app gives the engine to mount the operations with. */
export interface MountContext {
  readonly contract: Contract;
  readonly handlers: Readonly<Record<string, AnyHandler | undefined>>;
  /** The body cap where part 8 declares none. */
  readonly maxBodyBytes: number;
  /** How part 7 presents the platform's failures. */
  readonly present: ProblemPresenter;
  /** The deployment's verifiers of part 5's schemes only code verifies, by scheme name. */
  readonly verifiers?: Readonly<Record<string, Verifier | undefined>>;
  /** The XML codec, when an operation declares an XML media type. */
  readonly xml: XmlCodec | undefined;
  /**
   * The JSON Schema of each schema an XML media type declares, made when the Worker was
   * built (`BuildEngine.xmlSchemas`), in the order the engine walks the contract.
   */
  readonly xmlSchemas: readonly XmlSchema[];
  /**
   * What the operation at `position` (its place in the contract, from 0) answers from under
   * the `examples` setting, made when the Worker was built (`BuildEngine.exampleBook`), as
   * the JSON text of a book that holds it: asked for on its first answer that needs it, never
   * when the Worker starts; undefined when the deployment cannot read it (its static assets).
   */
  readonly exampleBook: (env: unknown, position: number) => Promise<string | undefined>;
}

/**
 * The operation engine as the Worker runs it: what serves the contract's operations. What
 * only the build needs (the checks, the documentation) is `BuildEngine`'s (./build-seam.ts), so the Worker
 * does not ship it.
 */
export interface WorkerEngine {
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
  readonly consume?: (batch: MessageBatch, env: Readonly<Record<string, unknown>>) => Promise<void>;
  /** How many destinations the deployment's bindings give each of part 6's events; with part 6 only. */
  readonly destinations?: (env: unknown) => (event: string) => number;
  /** How the deployment's setting answers operations without a handler, for the status report. */
  readonly answering: (env: unknown) => Answering;
  /** `DELETE /_service/sandbox`: empties the caller's sandbox (src/mocks/sandbox/reset.ts). */
  readonly sandboxReset?: (contract: Contract) => SandboxResetRoute;
}

/** The sandbox's reset route, and whether the contract has a sandbox (decided on first use). */
export interface SandboxResetRoute {
  readonly enabled: () => boolean;
  readonly reset: H;
}
