/**
 * An operation's transition (part 3), served: the handler's `transition(current)` helper,
 * the refusal it throws when the machine allows no such transition (answered 409 Conflict,
 * RFC 9110 §15.5.10), and the check that the answer carries the state it reached.
 */
import type { Contract, Operation } from "../../contract-language/contract";

export interface TransitionPlan {
  readonly machine: string;
  readonly trigger: string;
  /** The resource member that holds the state, if the machine names one. */
  readonly field: string | undefined;
  readonly states: ReadonlySet<string>;
  /** Where the trigger leads from each state it applies to. */
  readonly targets: ReadonlyMap<string, string>;
  /** The triggers allowed from each state. */
  readonly triggers: ReadonlyMap<string, readonly string[]>;
}

/** Thrown by `transition(current)` when the trigger does not apply to `current`. */
class TransitionRefused extends Error {
  constructor(
    /** The current state, only when it is one of the machine's (nothing else is echoed). */
    readonly current: string | undefined,
    readonly allowed: readonly string[],
  ) {
    super("the state machine allows no such transition");
  }
}

function planTransition(contract: Contract, operation: Operation): TransitionPlan | undefined {
  const declared = operation.transition;
  const machine = declared && contract.states[declared.machine];
  if (!declared || !machine) return undefined;
  const targets = new Map<string, string>();
  const triggers = new Map<string, string[]>();
  for (const { from, to, trigger } of machine.transitions) {
    if (trigger === declared.trigger) targets.set(from, to);
    triggers.set(from, [...(triggers.get(from) ?? []), trigger]);
  }
  return {
    machine: declared.machine,
    trigger: declared.trigger,
    field: machine.field,
    states: new Set(machine.states),
    targets,
    triggers,
  };
}

/** The handler's helper; `reached` records the target, for the answer's check. */
function transitionHelper(
  plan: TransitionPlan | undefined,
  operationId: string,
  reached: { target?: string },
): (current: string) => string {
  return (current) => {
    if (!plan) throw new Error(`operation ${operationId} declares no transition`);
    const target = plan.targets.get(current);
    if (target === undefined) {
      const known = plan.states.has(current);
      throw new TransitionRefused(
        known ? current : undefined,
        known ? [...new Set(plan.triggers.get(current) ?? [])] : [],
      );
    }
    reached.target = target;
    return target;
  };
}

/** Why an answer does not carry the state its transition reached; undefined when it does. */
function stateMismatch(
  plan: TransitionPlan | undefined,
  target: string | undefined,
  body: unknown,
): string | undefined {
  if (!plan?.field || target === undefined) return undefined;
  const value = (body as Record<string, unknown> | null | undefined)?.[plan.field];
  return value === target
    ? undefined
    : `${plan.field} is not ${target}, the state the transition ${plan.trigger} of ${plan.machine} reached`;
}

/** The states an operation acts in, only (`Operation.allowedIn`), planned. */
export interface GuardPlan {
  readonly machine: string;
  readonly allowed: readonly string[];
  readonly states: ReadonlySet<string>;
}

/** Thrown by `requireState(current)` when `current` is not one the operation acts in. */
class StateRefused extends Error {
  constructor(
    /** The current state, only when it is one of the machine's (nothing else is echoed). */
    readonly current: string | undefined,
    readonly plan: GuardPlan,
  ) {
    super("the operation does not act in this state");
  }
}

function planGuard(contract: Contract, operation: Operation): GuardPlan | undefined {
  const declared = operation.allowedIn;
  const machine = declared && contract.states[declared.machine];
  if (!declared || !machine) return undefined;
  return { machine: declared.machine, allowed: declared.states, states: new Set(machine.states) };
}

/** The handler's `requireState`: returns where `current` is allowed, throws otherwise. */
function guardHelper(plan: GuardPlan | undefined, operationId: string): (current: string) => void {
  return (current) => {
    if (!plan) throw new Error(`operation ${operationId} declares no allowedIn`);
    if (!plan.allowed.includes(current))
      throw new StateRefused(plan.states.has(current) ? current : undefined, plan);
  };
}

/** Part 3 as the serving engine uses it: in a Worker only when part 3 declares a machine. */
export const STATES_FEATURE = {
  plan: planTransition,
  helper: transitionHelper,
  mismatch: stateMismatch,
  Refused: TransitionRefused,
  guardPlan: planGuard,
  guard: guardHelper,
  StateRefused,
} as const;

export type StatesFeature = typeof STATES_FEATURE;
