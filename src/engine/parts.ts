/**
 * The parts of the serving engine, each given only to a Worker whose contract uses it, so
 * the code of a part the contract does not use is not in its bundle: the build chooses them
 * from the contract (`servingParts`, src/contract-language/needs.ts; src/build/generate.ts
 * writes their imports), and the engine refuses to mount a contract that needs a part it
 * was not given (a stale build), naming it. Each part lives beside the code it serves.
 *
 * One part follows from the handlers as well as the contract: `examples`, the way operations
 * without a handler answer under the `examples` setting (src/engine/operations/examples.ts,
 * with the value generator of src/engine/examples/). The build gives it only while some
 * operation has no handler (`engineParts`), so a Worker whose every operation has one does
 * not ship the generator. It is needed under one setting only, so the engine does not refuse
 * a Worker built without it: such an operation answers 501 under every setting.
 *
 * The sandbox's parts follow from where it places operations (src/engine/sandbox/place.ts,
 * read by the build only): `store` with the Durable Object, `sandbox` (its answers) only
 * while an operation it places has no handler. Under the `sandbox` setting, an operation it
 * does not place answers from the examples part.
 */
import type { Contract } from "../contract-language/contract";
import { type ServingPart, servingParts } from "../contract-language/needs";
import type { SecurityPart } from "./authentication/authenticate";
import type { SignaturesPart } from "./authentication/aws-sigv4";
import type { IntrospectionPart } from "./authentication/introspection";
import type { ErrorModelPart } from "./error-model";
import type { EventsPart } from "./events/part";
import type { RateLimitsPart } from "./limits/enforce";
import type { FormsPart } from "./request/forms";
import type { SandboxPart } from "./sandbox/answer";
import { placeOperations } from "./sandbox/place";
import type { StorePart } from "./sandbox/store";
import type { StatesPart } from "./states/transition";
import type { VersionsPart } from "./versions/negotiate";

interface PartTypes {
  readonly versions: VersionsPart;
  readonly rateLimits: RateLimitsPart;
  readonly security: SecurityPart;
  readonly introspection: IntrospectionPart;
  readonly signatures: SignaturesPart;
  readonly states: StatesPart;
  readonly events: EventsPart;
  readonly errorModel: ErrorModelPart;
  readonly forms: FormsPart;
}

/**
 * The parts a serving engine was given: any of them, by name; and the sandbox's two, which
 * follow from where the sandbox places operations (`engineParts`): its store (for handlers,
 * and the reset) and its answers (for operations without a handler).
 */
export type ServingParts = { readonly [P in ServingPart]?: PartTypes[P] } & {
  readonly store?: StorePart;
  readonly sandbox?: SandboxPart;
};

/**
 * A part of the serving engine: one the contract uses, or the examples' answers (typed
 * beside the engine, `EngineParts` in serving.ts, as its code imports the operations').
 */
export type EnginePart = ServingPart | "examples" | "store" | "sandbox";

/** Whether some operation of `contract` has no handler in `handlers` (as `createApp` counts them). */
export function answersWithoutHandler(
  contract: Contract,
  handlers: Readonly<Record<string, unknown>>,
): boolean {
  return Object.keys(contract.operations).some(
    (id) => !Object.hasOwn(handlers, id) || handlers[id] === undefined,
  );
}

/**
 * The parts a Worker of `contract` with `handlers` is given: those the contract uses
 * (`servingParts`), `examples` while some operation has no handler, `store` where the
 * sandbox places some operation and a handler or the sandbox's answers may use it (the
 * Durable Object is bound and exported wherever it places one), and `sandbox` while some
 * operation it places has no handler.
 * Without `unhandledAnswers` (a deploy build whose deployment answers 501: src/build/write.ts)
 * neither `examples` nor `sandbox`: an operation without a handler then answers 501 whatever
 * the setting says (./operations/unhandled.ts).
 */
export function engineParts(
  contract: Contract,
  handlers: Readonly<Record<string, unknown>>,
  unhandledAnswers = true,
): EnginePart[] {
  const unhandled = (id: string) => !Object.hasOwn(handlers, id) || handlers[id] === undefined;
  const examples =
    unhandledAnswers && answersWithoutHandler(contract, handlers) ? (["examples"] as const) : [];
  const placed = placeOperations(contract).filter(({ place }) => place !== "examples");
  const sandbox =
    unhandledAnswers && placed.some(({ id }) => unhandled(id)) ? (["sandbox"] as const) : [];
  // Only a handler or the sandbox's answers read the store: a Worker with neither (an
  // imported contract deployed to answer 501) exports a resting class in its place.
  const attached = Object.keys(contract.operations).some((id) => !unhandled(id));
  const store = placed.length > 0 && (attached || sandbox.length > 0) ? (["store"] as const) : [];
  return [...servingParts(contract), ...examples, ...store, ...sandbox];
}
