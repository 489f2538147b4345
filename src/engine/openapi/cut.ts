/**
 * A schema as the documenter hands it to zod's JSON Schema converter: with every *other*
 * named schema (a part 2 resource, or one of its views) it reaches cut off, replaced by a
 * stand-in that zod writes as that name's `$ref` and nothing more. Why: zod's converter
 * walks everything a schema reaches, and for a request again from every node it writes
 * (zod 4.6's `isTransforming`), so a densely linked document did not finish in 20 minutes.
 * Cut off, each conversion is the size of its own schema, and the document is the same.
 * What the stand-in keeps, and the numbers: src/engine/README.md, "The OpenAPI document's
 * schemas".
 */
import { $ZodAny, clone, globalRegistry } from "zod/v4/core";
import type { Schema } from "../../contract-language/contract";
import { defOf, WRAPPERS, type ZodDef } from "../../contract-language/zod-def";
import { settleReach } from "../zod/reach";
import { lazyOver, viewOrigin } from "../zod/views";

type Check = { readonly _zod: { readonly def: { readonly check: string } } };

/** The wrappers zod looks beneath for a transform (`isTransforming`), besides `WRAPPERS`. */
const TRANSFORM_WRAPPERS: ReadonlySet<string> = new Set([...WRAPPERS, "promise"]);

/** The nodes zod's `isTransforming` walks on to from `node`, in its order. */
function transformEdges(node: Schema): Schema[] {
  const def = defOf(node);
  switch (def.type) {
    case "array":
      return [def.element as Schema];
    case "set":
      return [def.valueType as Schema];
    case "lazy":
      return [(def.getter as () => Schema)()];
    case "intersection":
      return [def.left as Schema, def.right as Schema];
    case "record":
    case "map":
      return [def.keyType as Schema, def.valueType as Schema];
    case "pipe":
      return [def.in as Schema, def.out as Schema];
    case "object":
      return Object.values(def.shape as Record<string, Schema>);
    case "union":
      return def.options as Schema[];
    case "tuple":
      return [...(def.items as Schema[]), ...(def.rest ? [def.rest as Schema] : [])];
    default:
      return TRANSFORM_WRAPPERS.has(def.type) ? [def.innerType as Schema] : [];
  }
}

/** A transform, or a codec (zod counts a codec's pipe as transforming). */
const isTransform = (node: Schema) =>
  defOf(node).type === "transform" ||
  (defOf(node).type === "pipe" && node._zod.traits.has("$ZodCodec"));

/** Whether a check only describes (`z.meta`, `z.describe`): it writes nothing but metadata. */
const onlyDescribes = (check: Check) =>
  check._zod.def.check === "meta" || check._zod.def.check === "describe";

/** zod's reading of whether a request may leave a member out (its `inputOptin`). */
function inputOptin(node: Schema): Schema["_zod"]["optin"] {
  const def = defOf(node);
  if (def.type === "pipe" && (def.in as Schema)._zod.traits.has("$ZodTransform"))
    return inputOptin(def.out as Schema);
  if (def.type === "catch") return inputOptin(def.innerType as Schema);
  return node._zod.optin;
}

interface NamedCut {
  /** `root` with every other named schema it reaches cut off (itself, where it recurs). */
  readonly root: (schema: Schema) => Schema;
  /** The metadata zod is to read for a node of a cut schema. */
  readonly metadata: (node: Schema) => Record<string, unknown> | undefined;
}

/**
 * Cuts schemas at the schemas `names` names. The cut of a node is made once and shared by
 * every root that reaches it, so a recursive schema stays recursive.
 */
export function cutAtNames(names: ReadonlyMap<Schema, string>): NamedCut {
  /** The node each cut node copies; for a stand-in, the named schema (or refinement). */
  const source = new WeakMap<Schema, Schema>();
  /** The name each stand-in of a named schema carries. */
  const standsFor = new WeakMap<Schema, string>();
  const cuts = new WeakMap<Schema, Schema>();
  /** Each named root, written in full. */
  const roots = new WeakMap<Schema, Schema>();
  /** The stand-ins of refinements that only describe a named schema. */
  const described = new WeakSet<Schema>();
  const transforming = new WeakMap<Schema, boolean>();
  const transforms = (node: Schema) => {
    if (!transforming.has(node)) settleReach(node, isTransform, transformEdges, transforming);
    return transforming.get(node) === true;
  };

  /** A node zod writes as `{}` plus its metadata, with what decides `required` kept. */
  const standIn = (of: Schema): Schema => {
    const stand = new $ZodAny({ type: transforms(of) ? "transform" : "any" } as never);
    const zod = stand._zod as { optin?: string; optout?: string };
    zod.optin = inputOptin(of);
    zod.optout = of._zod.optout;
    source.set(stand, of);
    return stand as unknown as Schema;
  };

  const cut = (node: Schema): Schema => {
    const known = cuts.get(node);
    if (known) return known;
    const name = names.get(node);
    if (name !== undefined) {
      const stand = standIn(node);
      standsFor.set(stand, name);
      cuts.set(node, stand);
      return stand;
    }
    const made = copy(node);
    cuts.set(node, made);
    return made;
  };

  /** `node` with its children (and the schema it refines) cut; a leaf is itself. */
  const copy = (node: Schema): Schema => {
    const def = defOf(node);
    const parent = node._zod.parent as Schema | undefined;
    const refined = parent && cut(parent);
    // A refinement of a named schema that only describes it: zod writes it as the `$ref`
    // and what its metadata says that the named schema's does not.
    if (refined && (standsFor.has(refined) || described.has(refined))) {
      const parentChecks = (defOf(parent as Schema).checks as Check[] | undefined) ?? [];
      const added = ((def.checks as Check[] | undefined) ?? []).slice(parentChecks.length);
      if (added.every(onlyDescribes)) {
        const stand = standIn(node);
        (stand._zod as { parent?: Schema }).parent = refined;
        described.add(stand);
        return stand;
      }
    }
    const made = rebuild(node, def);
    if (made === node && refined === parent) return node;
    const result = made === node ? clone(node, def as never) : made;
    if (refined) (result._zod as { parent?: Schema }).parent = refined;
    source.set(result, node);
    return result;
  };

  /** A new node of the same kind over cut children; `node` itself if it has none. */
  const rebuild = (node: Schema, def: ZodDef): Schema => {
    const over = (changes: Record<string, unknown>) =>
      clone(node, { ...def, ...changes } as never) as Schema;
    switch (def.type) {
      case "object": {
        const shape = def.shape as Record<string, Schema>;
        const next: Record<string, Schema> = {};
        // Members are cut when zod first reads them, so a schema that recurs through its
        // members' getters (a view of a recursive resource) is cut as it is walked.
        for (const key of Object.keys(shape))
          Object.defineProperty(next, key, {
            enumerable: true,
            configurable: true,
            get() {
              const value = cut(shape[key] as Schema);
              Object.defineProperty(next, key, { value, enumerable: true });
              return value;
            },
          });
        return over({
          shape: next,
          ...(def.catchall ? { catchall: cut(def.catchall as Schema) } : {}),
        });
      }
      case "lazy": {
        let inner: Schema | undefined;
        return lazyOver(node, () => {
          inner ??= cut((def.getter as () => Schema)());
          return inner;
        });
      }
      case "array":
        return over({ element: cut(def.element as Schema) });
      case "set":
        return over({ valueType: cut(def.valueType as Schema) });
      case "record":
      case "map":
        return over({
          keyType: cut(def.keyType as Schema),
          valueType: cut(def.valueType as Schema),
        });
      case "union":
        return over({ options: (def.options as Schema[]).map(cut) });
      case "intersection":
        return over({ left: cut(def.left as Schema), right: cut(def.right as Schema) });
      case "tuple":
        return over({
          items: (def.items as Schema[]).map(cut),
          ...(def.rest ? { rest: cut(def.rest as Schema) } : {}),
        });
      case "pipe":
        return over({ in: cut(def.in as Schema), out: cut(def.out as Schema) });
      default:
        return TRANSFORM_WRAPPERS.has(def.type)
          ? over({ innerType: cut(def.innerType as Schema) })
          : node;
    }
  };

  /** The metadata zod reads where a schema stands: a view's is its resource's. */
  const metaOf = (node: Schema) => {
    const origin = viewOrigin(node);
    return globalRegistry.get(node) ?? (origin && globalRegistry.get(origin));
  };

  return {
    root: (schema) => {
      // The root itself is written in full, never as its own `$ref`; where it recurs, it is.
      if (!names.has(schema)) return cut(schema);
      const known = roots.get(schema);
      if (known) return known;
      const made = copy(schema);
      roots.set(schema, made);
      return made;
    },
    metadata: (node) => {
      const name = standsFor.get(node);
      const meta = metaOf(source.get(node) ?? node);
      return name === undefined ? meta : { ...meta, id: name };
    },
  };
}
