/**
 * Part 3 refused at start-up where the types cannot see it (a contract typed only as
 * `Contract`, plain JavaScript, or what only the schemas know): each machine's resource is
 * declared; its states are distinct and `initial` and every `from`/`to` are among them; a
 * trigger leads to one state from each state; every state is reachable from `initial`;
 * the resource's state field, when named, allows exactly the machine's states; and an
 * operation's transition names a machine and one of its triggers.
 */
import { type Contract, resolveSchema, type StateMachine } from "../../contract-language/contract";
import { unwrap } from "../../contract-language/zod-def";
import { objectShape } from "../zod/shape";

/** What a member's schema allows, when it is a closed set of strings (an enum or literals). */
function allowedStrings(schema: unknown): string[] | undefined {
  const values = (schema as { _zod?: { values?: Set<unknown> } } | undefined)?._zod?.values;
  if (!values) return undefined;
  const list = [...values];
  return list.every((v) => typeof v === "string") ? (list as string[]) : undefined;
}

function checkMachine(contract: Contract, name: string, machine: StateMachine): void {
  const fail = (why: string) => {
    throw new Error(`state machine ${name}: ${why}`);
  };
  const resource = contract.resources[machine.resource];
  if (!resource) fail(`its resource ${machine.resource} is not declared in part 2`);
  const states = new Set(machine.states);
  if (states.size === 0) fail("declares no state");
  if (states.size !== machine.states.length) fail("names a state twice");
  if (!states.has(machine.initial))
    fail(`its initial state ${machine.initial} is not one of its states`);
  const seen = new Map<string, string>();
  for (const { from, to, trigger } of machine.transitions) {
    for (const state of [from, to])
      if (!states.has(state)) fail(`a transition uses ${state}, which is not one of its states`);
    const key = `${from}\n${trigger}`;
    const earlier = seen.get(key);
    if (earlier !== undefined && earlier !== to)
      fail(`trigger ${trigger} from ${from} leads to both ${earlier} and ${to}`);
    seen.set(key, to);
  }
  const reached = new Set([machine.initial]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const { from, to } of machine.transitions)
      if (reached.has(from) && !reached.has(to)) {
        reached.add(to);
        grew = true;
      }
  }
  const unreachable = machine.states.filter((s) => !reached.has(s));
  if (unreachable.length > 0)
    fail(`${unreachable.join(", ")} cannot be reached from ${machine.initial}`);
  if (machine.field !== undefined) {
    const shape = resource ? objectShape(resolveSchema(resource)) : undefined;
    const member = shape?.[machine.field];
    if (!member) fail(`${machine.resource} has no member ${machine.field}`);
    const allowed = member ? allowedStrings(unwrap(member)) : undefined;
    const same =
      allowed !== undefined &&
      allowed.length === states.size &&
      allowed.every((value) => states.has(value));
    if (!same)
      fail(
        `${machine.resource}.${machine.field} must allow exactly the machine's states (${machine.states.join(", ")})`,
      );
  }
}

export function checkStates(contract: Contract): void {
  for (const [name, machine] of Object.entries(contract.states))
    checkMachine(contract, name, machine);
  for (const [id, operation] of Object.entries(contract.operations)) {
    const allowed = operation.allowedIn;
    if (allowed) {
      const machine = contract.states[allowed.machine];
      if (!machine)
        throw new Error(
          `operation ${id}: allowedIn names machine ${allowed.machine}, which part 3 does not declare`,
        );
      if (allowed.states.length === 0)
        throw new Error(`operation ${id}: allowedIn names no state of ${allowed.machine}`);
      for (const state of allowed.states)
        if (!machine.states.includes(state))
          throw new Error(
            `operation ${id}: allowedIn names ${state}, which is not a state of ${allowed.machine}`,
          );
    }
    const transition = operation.transition;
    if (!transition) continue;
    const machine = contract.states[transition.machine];
    if (!machine)
      throw new Error(
        `operation ${id}: its transition's machine ${transition.machine} is not declared in part 3`,
      );
    if (!machine.transitions.some((t) => t.trigger === transition.trigger))
      throw new Error(
        `operation ${id}: machine ${transition.machine} has no trigger ${transition.trigger}`,
      );
  }
}
