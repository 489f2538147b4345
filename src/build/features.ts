/**
 * Which features of the serving engine (src/engine/features.ts) a Worker is built with:
 * those its contract uses, and the mocks' (src/mocks/) as its handlers and settings leave
 * them something to answer. Only the build chooses (src/build/generate.ts writes their
 * imports); the Worker never reads where the sandbox places operations.
 */
import type { Contract } from "../contract-language/contract";
import { servingFeatures } from "../contract-language/needs";
import type { EngineFeature } from "../engine/features";
import { placeOperations } from "../mocks/sandbox/place";

/** Whether some operation of `contract` has no handler in `handlers` (as `createApp` counts them). */
function answersWithoutHandler(
  contract: Contract,
  handlers: Readonly<Record<string, unknown>>,
): boolean {
  return Object.keys(contract.operations).some(
    (id) => !Object.hasOwn(handlers, id) || handlers[id] === undefined,
  );
}

/**
 * The features a Worker of `contract` with `handlers` is given: those the contract uses
 * (`servingFeatures`), `examples` while some operation has no handler, `store` where the
 * sandbox places some operation and a handler or the sandbox's answers may use it (the
 * Durable Object is bound and exported wherever it places one), and `sandbox` while some
 * operation it places has no handler.
 * Without `unhandledAnswers` (a deploy build whose deployment answers 501: src/build/write.ts)
 * neither `examples` nor `sandbox`: an operation without a handler then answers 501 whatever
 * the setting says (./operations/unhandled.ts).
 */
export function engineFeatures(
  contract: Contract,
  handlers: Readonly<Record<string, unknown>>,
  unhandledAnswers = true,
): EngineFeature[] {
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
  return [...servingFeatures(contract), ...examples, ...store, ...sandbox];
}
