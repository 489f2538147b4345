/**
 * The two views of one schema (OpenAPI 3.1 §4.8.24.1, JSON Schema `readOnly`/`writeOnly`):
 * in a request, a member marked read-only (an id, a state the server sets) is not
 * required; in an answer, a member marked write-only (a card's security code) is not. The
 * views are derived once, on first use, at any depth (nested objects, arrays, unions,
 * recursive schemas); a schema with no mark is its own view, at no cost. A schema's view is
 * one object for the isolate's life, however often it is asked for. When the Worker checks a
 * value, a lazy schema's view is a lazy one, made without building its target (`Reach`).
 */
import { $ZodOptional, clone, globalRegistry } from "zod/v4/core";
import type { Schema } from "../../contract-language/contract";
import { defOf, WRAPPERS, type ZodDef } from "../../contract-language/zod-def";
import { settleReach } from "./reach";

type Direction = "request" | "response";

const MARK: Readonly<Record<Direction, "readOnly" | "writeOnly">> = {
  request: "readOnly",
  response: "writeOnly",
};

const isMarked = (schema: Schema, mark: "readOnly" | "writeOnly") =>
  globalRegistry.get(schema)?.[mark] === true;

/** A new schema of the same kind, with `def` in place of its own. */
function rebuilt(schema: Schema, def: ZodDef): Schema {
  return clone(schema, def as unknown as Schema["_zod"]["def"]);
}

/**
 * A lazy schema like `node` whose target is what `getter` gives. zod 4.6 keeps a lazy's
 * target on its def once read (`_cachedInner`), so the def is copied without it, or the new
 * lazy would give the old target.
 */
export function lazyOver(node: Schema, getter: () => Schema): Schema {
  const { _cachedInner: _target, ...def } = defOf(node);
  return rebuilt(node, { ...def, getter } as ZodDef);
}

/** The schemas a node contains directly (members, items, options, inner types). */
function children(def: ZodDef): Schema[] {
  switch (def.type) {
    case "object":
      return Object.values(def.shape as Record<string, Schema>);
    case "lazy":
      return [(def.getter as () => Schema)()];
    case "array":
      return [def.element as Schema];
    case "record":
      return [def.valueType as Schema];
    case "union":
      return def.options as Schema[];
    case "intersection":
      return [def.left as Schema, def.right as Schema];
    case "tuple":
      return [...(def.items as Schema[]), ...(def.rest ? [def.rest as Schema] : [])];
    default:
      return def.innerType ? [def.innerType as Schema] : [];
  }
}

/** Every schema reachable from `roots`, themselves included (cycles are walked once). */
export function reachableSchemas(roots: readonly Schema[]): Set<Schema> {
  const seen = new Set<Schema>();
  const pending = [...roots];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (seen.has(node)) continue;
    seen.add(node);
    pending.push(...children(defOf(node)));
  }
  return seen;
}

/**
 * How far a view looks before it is made:
 * - `whole` (the documents, made when the Worker is built): through every lazy schema, so a
 *   schema with no mark at any depth is its own view and the document names it as it is;
 * - `checking` (the Worker checking a request or an answer): not into a lazy schema (a
 *   reference, a recursive schema), whose target is built when a value first reaches it,
 *   not to answer this; a lazy one always gets a view, which looks at its target then (a
 *   large API's body reaches thousands of schemas). Both views accept the same values.
 */
type Reach = "whole" | "checking";

type Memo = { holds: WeakMap<Schema, boolean>; views: WeakMap<Schema, Schema> };
const memo = (): Memo => ({ holds: new WeakMap(), views: new WeakMap() });

/**
 * What is known of each node, per reach and direction, for the isolate's life: whether it
 * holds a marked member, and its view. Shared by every call, so a resource has one view
 * wherever it appears (the OpenAPI document names that view once, and refers to it everywhere).
 */
const MEMO: Readonly<Record<Reach, Readonly<Record<Direction, Memo>>>> = {
  whole: { request: memo(), response: memo() },
  checking: { request: memo(), response: memo() },
};

/** The schema each view was made from, so its own metadata (a description) is found. */
const ORIGIN = new WeakMap<Schema, Schema>();

/** The schema a view was made from; undefined for a schema that is no view. */
export function viewOrigin(schema: Schema): Schema | undefined {
  return ORIGIN.get(schema);
}

export function viewOf(schema: Schema, direction: Direction, reach: Reach = "whole"): Schema {
  const mark = MARK[direction];
  const stopsAt = (def: ZodDef) => reach === "checking" && def.type === "lazy";

  // First: which nodes hold a marked member at any depth, each settled once per isolate.
  const known = MEMO[reach][direction].holds;
  const holdsMarked = (node: Schema) => {
    const def = defOf(node);
    if (stopsAt(def)) return true;
    return (
      def.type === "object" &&
      Object.values(def.shape as Record<string, Schema>).some((m) => isMarked(m, mark))
    );
  };
  const next = (node: Schema) => {
    const def = defOf(node);
    return stopsAt(def) ? [] : children(def);
  };
  const needs = (node: Schema): boolean => {
    if (!known.has(node)) settleReach(node, holdsMarked, next, known);
    return known.get(node) === true;
  };

  // Then: a view of each node that needs one, once. An object's view is known before its
  // members' views are made, so a recursive schema's view refers to itself; zod reads the
  // members only when the view first checks a value.
  const views = MEMO[reach][direction].views;
  const view = (node: Schema): Schema => {
    if (!needs(node)) return node;
    const known = views.get(node);
    if (known) return known;
    const def = defOf(node);
    let result: Schema;
    if (def.type === "object") {
      const shape = def.shape as Record<string, Schema>;
      const next: Record<string, Schema> = {};
      result = rebuilt(node, { ...def, shape: next });
      views.set(node, result);
      ORIGIN.set(result, node);
      for (const key of Object.keys(shape)) {
        const member = shape[key] as Schema;
        const value = view(member);
        next[key] =
          isMarked(member, mark) && defOf(member).type !== "optional"
            ? new $ZodOptional({ type: "optional", innerType: value })
            : value;
      }
      return result;
    } else if (def.type === "lazy") {
      let inner: Schema | undefined;
      const getter = () => {
        inner ??= view((def.getter as () => Schema)());
        return inner;
      };
      result = lazyOver(node, getter);
    } else if (WRAPPERS.has(def.type)) {
      result = rebuilt(node, { ...def, innerType: view(def.innerType as Schema) });
    } else if (def.type === "array") {
      result = rebuilt(node, { ...def, element: view(def.element as Schema) });
    } else if (def.type === "record") {
      result = rebuilt(node, { ...def, valueType: view(def.valueType as Schema) });
    } else if (def.type === "union") {
      result = rebuilt(node, { ...def, options: (def.options as Schema[]).map(view) });
    } else if (def.type === "intersection") {
      result = rebuilt(node, {
        ...def,
        left: view(def.left as Schema),
        right: view(def.right as Schema),
      });
    } else if (def.type === "tuple") {
      const rest = def.rest ? view(def.rest as Schema) : def.rest;
      result = rebuilt(node, { ...def, items: (def.items as Schema[]).map(view), rest });
    } else {
      result = node;
    }
    views.set(node, result);
    if (result !== node) ORIGIN.set(result, node);
    return result;
  };
  return view(schema);
}

/** Whether `schema`, or a wrapper's inner schema or a lazy's target under it, carries the mark. */
function markedThrough(schema: Schema, mark: "readOnly" | "writeOnly"): boolean {
  let node = schema;
  for (let depth = 0; depth < 16; depth += 1) {
    if (isMarked(node, mark)) return true;
    const def = defOf(node);
    if (WRAPPERS.has(def.type)) node = def.innerType as Schema;
    else if (def.type === "lazy") node = (def.getter as () => Schema)();
    else return false;
  }
  return false;
}

/** The schema under its wrappers and lazies, where its members are. */
function inner(schema: Schema): Schema {
  let node = schema;
  for (let depth = 0; depth < 16; depth += 1) {
    const def = defOf(node);
    if (WRAPPERS.has(def.type)) node = def.innerType as Schema;
    else if (def.type === "lazy") node = (def.getter as () => Schema)();
    else break;
  }
  return node;
}

/**
 * `value` without the members `schema` marks write-only, at any depth (OpenAPI 3.1
 * §4.8.24.1: a card's security code is sent, never answered); `dropped` gets the JSON
 * Pointer of each member left out.
 */
export function withoutWriteOnly(
  schema: Schema,
  value: unknown,
  dropped: string[] = [],
  at = "",
  depth = 0,
): unknown {
  if (depth > 32 || value === null || typeof value !== "object") return value;
  const node = inner(schema);
  const def = defOf(node);
  if (Array.isArray(value))
    return def.type === "array"
      ? value.map((item, i) =>
          withoutWriteOnly(def.element as Schema, item, dropped, `${at}/${i}`, depth + 1),
        )
      : value;
  if (def.type !== "object") return value;
  const shape = def.shape as Record<string, Schema>;
  const kept: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
    const declared = Object.hasOwn(shape, name) ? shape[name] : undefined;
    const here = `${at}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (declared && markedThrough(declared, "writeOnly")) {
      dropped.push(here);
      continue;
    }
    kept[name] = declared ? withoutWriteOnly(declared, member, dropped, here, depth + 1) : member;
  }
  return kept;
}
