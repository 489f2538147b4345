/**
 * The two views of one schema (OpenAPI 3.1 §4.8.24.1, JSON Schema `readOnly`/`writeOnly`):
 * in a request, a member marked read-only (an id, a state the server sets) is not
 * required; in an answer, a member marked write-only (a card's security code) is not. The
 * views are derived once, when the app starts, at any depth (nested objects, arrays, unions,
 * recursive schemas); a schema with no mark is its own view, at no cost.
 */
import { $ZodOptional, clone, globalRegistry } from "zod/v4/core";
import type { Schema } from "../../domain/contract";
import { WRAPPERS } from "./shape";

export type Direction = "request" | "response";

const MARK: Readonly<Record<Direction, "readOnly" | "writeOnly">> = {
  request: "readOnly",
  response: "writeOnly",
};

type Def = Record<string, unknown> & { readonly type: string };

const defOf = (schema: Schema) => schema._zod.def as unknown as Def;
const isMarked = (schema: Schema, mark: "readOnly" | "writeOnly") =>
  globalRegistry.get(schema)?.[mark] === true;

/** A new schema of the same kind, with `def` in place of its own. */
function rebuilt(schema: Schema, def: Def): Schema {
  return clone(schema, def as unknown as Schema["_zod"]["def"]);
}

/** The schemas a node contains directly (members, items, options, inner types). */
function children(def: Def): Schema[] {
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

export function viewOf(schema: Schema, direction: Direction): Schema {
  const mark = MARK[direction];

  // First: which nodes hold a marked member at any depth (a cycle in progress holds none yet).
  const holds = new Map<Schema, boolean>();
  const needs = (node: Schema): boolean => {
    const known = holds.get(node);
    if (known !== undefined) return known;
    holds.set(node, false);
    const def = defOf(node);
    const result =
      (def.type === "object" &&
        Object.values(def.shape as Record<string, Schema>).some((m) => isMarked(m, mark))) ||
      children(def).some(needs);
    holds.set(node, result);
    return result;
  };

  // Then: a view of each node that needs one, once; members of objects are resolved on
  // first use, so a recursive schema's view refers to itself.
  const views = new Map<Schema, Schema>();
  const view = (node: Schema): Schema => {
    if (!needs(node)) return node;
    const known = views.get(node);
    if (known) return known;
    const def = defOf(node);
    let result: Schema;
    if (def.type === "object") {
      const shape = def.shape as Record<string, Schema>;
      const next: Record<string, Schema> = {};
      for (const key of Object.keys(shape)) {
        Object.defineProperty(next, key, {
          enumerable: true,
          configurable: true,
          get() {
            const member = shape[key] as Schema;
            let value = view(member);
            if (isMarked(member, mark) && defOf(member).type !== "optional")
              value = new $ZodOptional({ type: "optional", innerType: value });
            Object.defineProperty(next, key, { value, enumerable: true });
            return value;
          },
        });
      }
      result = rebuilt(node, { ...def, shape: next });
    } else if (def.type === "lazy") {
      let inner: Schema | undefined;
      const getter = () => {
        inner ??= view((def.getter as () => Schema)());
        return inner;
      };
      result = rebuilt(node, { ...def, getter });
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
    return result;
  };
  return view(schema);
}
