/**
 * One model per operation: everything it can answer, planned once. Its outline (the
 * operation as declared, its limits and every failure it can answer with) reads only
 * declarations, so the OpenAPI document and the problem list build one for every operation;
 * the full model adds what serving needs (the request plan, security, answers, transition,
 * events, versions, the part 7 presenter) and the ordered steps a request runs through. It
 * is planned on the operation's first request, never when the Worker starts
 * (`operations/plan.ts`); serving runs its steps (`operations/run.ts`), the document prints
 * its failures (`openapi/operations.ts`), the problem list is the union of them
 * (`operationProblemTypes`).
 */
import type { Context } from "hono";
import type { Contract, Operation } from "../../contract-language/contract";
import type { AnyHandler, AnyResult, Authenticated } from "../../contract-language/define-handlers";
import type { AppEnv } from "../../platform/env";
import type { ProblemPresenter } from "../../platform/problem-presenter";
import type { Identity } from "../authentication/authenticate";
import type { SecurityPlan } from "../authentication/plan";
import type { Emission } from "../events/emit";
import type { ExampleBook } from "../example-book";
import { type OperationLimits, planLimits } from "../limits/plan";
import type { SandboxCaller } from "../mock-features";
import type { Refusal } from "../refusal";
import type { RequestPlan, ValidatedInput } from "../request/plan";
import type { GuardPlan, TransitionPlan } from "../states/transition";
import type { VersionGate } from "../versions/negotiate";
import {
  type Failure,
  operationFailures,
  SANDBOX_CONTENDED,
  SANDBOX_FULL,
  SANDBOX_ID_TAKEN,
  SANDBOX_NOT_FOUND,
  SANDBOX_PRECONDITION_FAILED,
} from "./failures";
import type { ResponsePlan } from "./responses";

/** What an operation is, as declared: enough to document it and list its problems. */
export interface OperationOutline {
  readonly id: string;
  /** The operation as this model serves it (one variant of part 9, where it has several). */
  readonly operation: Operation;
  readonly limits: OperationLimits;
  /** Every failure it can answer with besides its declared answers, in the document's order. */
  readonly failures: readonly Failure[];
}

/** What one request carries from step to step. */
export interface Exchange {
  readonly c: Context<AppEnv>;
  readonly requestId: string;
  /** Secrets and bindings, looked up by the names the contract gives. */
  readonly env: Readonly<Record<string, unknown>>;
  readonly accept: string | null;
  /** The model serving the request: the variant its version selects, once it is known. */
  model: OperationModel;
  version: string | undefined;
  /** Headers every answer carries from here on (part 9's deprecation headers). */
  headers: Readonly<Record<string, string>> | undefined;
  auth: Authenticated | undefined;
  /** Identifies the credential for per-credential rate limits (not the credential). */
  rateKey: string | undefined;
  /** What names the caller's store under STORE_TENANCY (src/mocks/sandbox/tenancy.ts). */
  identity: Identity | undefined;
  input: ValidatedInput | undefined;
  result: AnyResult | undefined;
  /**
   * Set where the result's body is a value the build held to this answer's schema and found
   * no write-only member in (an example served as it is: src/engine/example-book.ts): the
   * answer check skips the body, and no secret is looked for in it.
   */
  vetted?: true;
  readonly emissions: Emission[];
  readonly reached: { target?: string };
}

/** What a step concludes: an answer, a refusal to answer, or nothing (the next step runs). */
export type Outcome = Response | Refusal | undefined;

/** One step of an operation's pipeline. */
export interface Step {
  /** Its name, as the model lists it (src/engine/README.md, "How a request travels"). */
  readonly name: StepName;
  readonly run: (exchange: Exchange) => Outcome | Promise<Outcome>;
}

type StepName =
  | "negotiateVersion"
  | "rateLimitByClient"
  | "authenticate"
  | "rateLimitByCredential"
  | "negotiateAnswer"
  | "readRequest"
  | "handle"
  | "checkAnswer"
  | "emit"
  | "respond";

/**
 * The `examples` setting's answer for an operation without a handler (`examples.ts`): it
 * sets the exchange's result, or answers `unanswered()` where it can make none. The engine's
 * examples feature (src/engine/features.ts), given only while an operation has no handler, so a
 * Worker whose every operation has one does not ship the value generator.
 */
export type ExamplesAnswer = (x: Exchange, unanswered: () => Outcome) => Promise<Outcome>;

/** The `examples` feature (src/mocks/examples/answer.ts): an operation without a handler answered from its examples. */
export interface ExamplesFeature {
  readonly answer: ExamplesAnswer;
}

/** A problem answer in the form the request negotiates (`problem-form.ts`). */
export type ProblemForm = (c: Context<AppEnv>, response: Response) => Promise<Response>;

/**
 * Everything one operation can answer, planned on its first request: its outline less the
 * failures, which only its documents list (the build's, `openapi/operations.ts`), so the
 * Worker neither computes nor carries their descriptions.
 */
export interface OperationModel extends Omit<OperationOutline, "failures"> {
  readonly contract: Contract;
  readonly handler: AnyHandler | undefined;
  /** How part 7 presents this operation's failures: the one place they become problems. */
  readonly present: ProblemPresenter;
  /** Part 9: the version step, where part 9 or a retirement applies. */
  readonly versions: VersionGate | undefined;
  /** The model of the variant that serves `version` (itself where there is one variant). */
  readonly variant: (version: string | undefined) => OperationModel;
  readonly security: SecurityPlan | undefined;
  readonly request: RequestPlan;
  readonly responses: ResponsePlan;
  readonly transition: TransitionPlan | undefined;
  /** The states of a part 3 machine the operation acts in, only. */
  readonly allowedIn: GuardPlan | undefined;
  /** Part 6's events this operation may emit. */
  readonly emits: readonly string[];
  /** The pipeline, in order; each step present only where the contract declares its cause. */
  readonly steps: readonly Step[];
  /** With XML declared: a problem answer in the form the request negotiates (JSON or XML). */
  readonly problemForm: ProblemForm | undefined;
  /** Which of the operation's variants this is (part 9; the operation's own declaration is 0). */
  readonly shapeIndex: number;
  /**
   * What an operation without a handler answers from under the `examples` setting;
   * undefined when the deployment cannot read it (its static assets).
   */
  readonly exampleBook: (env: unknown) => Promise<ExampleBook | undefined>;
  /** How it answers from them; absent from a Worker whose every operation has a handler. */
  readonly examples: ExamplesAnswer | undefined;
  /**
   * The sandbox as this operation's handler, made on first use; undefined where the Worker
   * has no sandbox feature, or (the call gives undefined) where the sandbox does not place it.
   */
  readonly sandbox: (() => AnyHandler | undefined) | undefined;
  /** Who a request is to the sandbox where the operation is open (src/mocks/sandbox/reset.ts). */
  readonly sandboxCaller: SandboxCaller | undefined;
}

/**
 * The outline of operation `id` as `op` declares it. `implemented`: whether a handler is
 * attached (without one, its valid requests are answered 501). `sandboxNotFound`: whether
 * the sandbox answers it the platform's 404 for an item it does not hold, while it has no
 * handler (src/mocks/sandbox/place.ts).
 */
export function outlineOperation(
  contract: Contract,
  id: string,
  op: Operation,
  implemented: boolean,
  sandboxNotFound = false,
  sandboxWrites = false,
  sandboxStores = false,
  sandboxCreates = false,
): OperationOutline {
  const limits = planLimits(contract, id);
  const failures = [
    ...operationFailures(contract, id, op, limits),
    ...(sandboxNotFound ? [SANDBOX_NOT_FOUND] : []),
    // An item the sandbox holds is written with tries that may all be lost to others.
    ...(sandboxWrites ? [SANDBOX_PRECONDITION_FAILED, SANDBOX_CONTENDED] : []),
    ...(sandboxStores ? [SANDBOX_FULL] : []),
    ...(sandboxCreates ? [SANDBOX_ID_TAKEN] : []),
  ].filter((failure) => !(implemented && failure.withoutHandler));
  return { id, operation: op, limits, failures };
}
