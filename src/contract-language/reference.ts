/**
 * References to named schemas, for the Worker's copy of the contract (its own module, so
 * the typed client, which reads lazy.ts, does not carry zod's lazy schema).
 */
import { ZodMiniLazy } from "zod/mini";
import { $constructor, type $ZodType } from "zod/v4/core";

/** A zod schema. */
type Schema = $ZodType;

/**
 * A reference to a named schema from inside another (a member, an item, an option), built
 * when a value first reaches it rather than with the schema that holds it. The Worker's
 * copy of the contract writes `Pet()` in those places as `reference(Pet)`
 * (src/build/share-schemas.ts): a first request then builds the schemas its body reaches,
 * not every schema the operation's body could reach (thousands, in a large API's biggest
 * bodies). zod's lazy schema reads its target for whether a member may be absent and for
 * its pattern; a reference also reads the target's values (an enum's, a literal's), which
 * zod's lazy leaves out and which a discriminated union or a union of literals reads of its
 * options, so a reference validates exactly as its target does. It stays one (zod's own
 * copies of a schema are made by its constructor) through `.check()` and the engine's views.
 */
const ZodReference = $constructor(
  "ContractReference",
  (inst: ZodMiniLazy, def: ZodMiniLazy["_zod"]["def"]) => {
    ZodMiniLazy.init(inst, def);
    // Read when first asked for, as zod's lazy reads the rest (zod's own helper for this
    // would bring its whole `util` namespace into the Worker's script).
    Object.defineProperty(inst._zod, "values", {
      configurable: true,
      get: () => inst._zod.innerType._zod.values,
    });
  },
);

export function reference<S extends Schema>(target: () => S): ZodMiniLazy<S> {
  return new ZodReference({ type: "lazy", getter: target }) as ZodMiniLazy<S>;
}
