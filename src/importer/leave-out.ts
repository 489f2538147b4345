/**
 * What an import leaves out rather than stop: one operation, webhook or component schema
 * that cannot be converted, or that the platform refuses to serve, is left out with a
 * finding at its JSON Pointer naming the cause, and the rest of the document is imported.
 * A component left out takes with it every operation, webhook and component that reaches
 * it through `$ref`s, each with a finding saying which component it needed.
 */
import { at, child, isObject, type Json } from "./source";

/** Units (by pointer) left out of an import, each with its cause. */
export type LeftOut = ReadonlyMap<string, string>;

/**
 * Thrown where a part decides a unit cannot be imported as the document gives it (an
 * operation only a way in the platform cannot verify would guard): its message is the cause.
 */
export class LeaveOut extends Error {
  override readonly name = "LeaveOut";
}

/** Whether a failure is the call stack running out: a value nested too deep to follow. */
const tooDeep = (error: unknown) =>
  error instanceof RangeError && /call stack/i.test(error.message);

/** The cause of a failure, in one line, never empty. */
export function causeOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (tooDeep(error)) return `it nests deeper than the importer can follow (${message})`;
  const line = message.split("\n").find((text) => text.trim() !== "");
  const name = error instanceof Error ? error.name : "a thrown value";
  return line?.trim() || `${name} without a message`;
}

/**
 * The units of one pass of an import: each converts on its own, and a failure is kept
 * (with its cause) instead of passed on, so one pass finds every unit that fails.
 */
export class Units {
  readonly leftOut: LeftOut;
  readonly #failed = new Map<string, string>();

  constructor(leftOut: LeftOut = new Map()) {
    this.leftOut = leftOut;
  }

  /** Runs `convert` for the unit at `pointer`; undefined when it failed (kept, not thrown). */
  convert<T>(pointer: string, convert: () => T): T | undefined {
    try {
      return convert();
    } catch (error) {
      this.fail(
        pointer,
        error instanceof LeaveOut || tooDeep(error)
          ? causeOf(error)
          : `the importer could not convert it (${causeOf(error)})`,
      );
      return undefined;
    }
  }

  /** Records that the unit at `pointer` cannot be imported. */
  fail(pointer: string, cause: string): void {
    if (!this.#failed.has(pointer)) this.#failed.set(pointer, cause);
  }

  /** The units that failed in this pass. */
  get failed(): LeftOut {
    return this.#failed;
  }
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/**
 * The units that reach a component left out (`#/components/…`), by pointer, each with a
 * cause naming that component: component schemas, operations (with their path item's
 * parameters) and webhooks. Units already left out are not listed again.
 */
export function reachingLeftOut(document: Json, leftOut: LeftOut): Map<string, string> {
  const targets = [...leftOut.keys()].filter((pointer) => pointer.startsWith("#/components/"));
  const found = new Map<string, string>();
  if (targets.length === 0) return found;
  const units = new Map<string, string[]>();
  const schemas = isObject(document.components) ? document.components.schemas : undefined;
  if (isObject(schemas))
    for (const [name, schema] of Object.entries(schemas))
      units.set(child("#", "components", "schemas", name), refsIn(schema));
  for (const [group, items] of [
    ["paths", document.paths],
    ["webhooks", document.webhooks],
  ] as const) {
    if (!isObject(items)) continue;
    for (const [key, item] of Object.entries(items)) {
      if (!isObject(item)) continue;
      for (const method of METHODS)
        if (isObject(item[method]))
          units.set(child("#", group, key, method), refsIn([item[method], item.parameters]));
    }
  }
  const reached = reachedTargets(document, targets, [...units.values()].flat());
  for (const [pointer, refs] of units) {
    if (leftOut.has(pointer)) continue;
    const target = refs.map((ref) => reached.get(ref)).find((t) => t !== undefined);
    if (target !== undefined)
      found.set(pointer, `it uses ${target}, which is left out (${leftOut.get(target)})`);
  }
  return found;
}

/**
 * Which of `targets` each reference reaches, following `$ref`s transitively from `refs`:
 * the references' graph is read first, then what reaches a target is found to a fixpoint,
 * so a cycle among references is no trouble.
 */
function reachedTargets(
  document: Json,
  targets: readonly string[],
  refs: readonly string[],
): Map<string, string> {
  const direct = new Map<string, string[]>();
  const pending = [...refs];
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    if (direct.has(ref)) continue;
    const inside = refsIn(at(document, ref));
    direct.set(ref, inside);
    pending.push(...inside);
  }
  const reached = new Map<string, string>();
  for (const ref of direct.keys()) {
    const target = targets.find((t) => ref === t || ref.startsWith(`${t}/`));
    if (target) reached.set(ref, target);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [ref, inside] of direct) {
      if (reached.has(ref)) continue;
      const target = inside.map((r) => reached.get(r)).find((t) => t !== undefined);
      if (target === undefined) continue;
      reached.set(ref, target);
      changed = true;
    }
  }
  return reached;
}

/** Values that are data, never a schema or an object that may refer: a `$ref` key in them is data. */
const DATA = new Set(["example", "default", "const", "enum"]);

/** The local `$ref`s (`#/…`) anywhere in a value but its data. */
function refsIn(value: unknown): string[] {
  const refs: string[] = [];
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (isObject(node))
      for (const [key, member] of Object.entries(node)) {
        if (key === "$ref" && typeof member === "string" && member.startsWith("#/"))
          refs.push(member);
        else if (!DATA.has(key)) pending.push(member);
      }
  }
  return refs;
}
