/**
 * Schemas built on first use. Wherever a contract declares a schema (a request part, a
 * body, an answer or its headers, an event's payload, an error type's schema and members, a
 * part 2 resource), it may give the schema itself or a function that builds it:
 * `params: () => z.object({ id: z.string() })`, `payload: Pet`, with `Pet` a `component`.
 * The engine builds an operation's request schemas on its first request (when it plans the
 * operation), and an answer's when an answer is first checked or made, so a Worker with
 * hundreds of operations and schemas builds none of them when its module is evaluated or
 * its app created: a zod schema costs CPU and memory to build, and a Worker pays both at
 * every cold start (DESIGN.md, "Performance stance").
 *
 * Every reader of a declared schema goes through `resolveSchema`: the engine when it plans
 * an operation, the build when it checks the contract and documents it. A handler's input
 * and answer are typed from what the function returns, exactly as from the schema itself.
 */
import type { $ZodType } from "zod/v4/core";

/** A zod schema (contract.ts re-exports this as `Schema`; declared here so lazy.ts needs nothing of contract.ts). */
type Schema = $ZodType;

/** A schema as a contract declares it: the schema, or a function that builds it on first use. */
export type Lazy<S extends Schema = Schema> = S | (() => S);

/** The schema a declaration stands for: what its function returns, or the schema itself. */
export type Built<D> = D extends () => infer S ? S : D;

/** Whether a declaration is a function that builds its schema (a schema is an object with `_zod`). */
function isBuilder<S extends Schema>(declared: Lazy<S>): declared is () => S {
  return typeof declared === "function" && !("_zod" in declared);
}

/** What each builder built, so a declaration stands for one schema however often it is read. */
const builtBy = new WeakMap<() => Schema, Schema>();

/**
 * The schema a declaration stands for, built on the first call and the same object on
 * every later one (the OpenAPI document names a part 2 resource by that identity). The one
 * place a declared schema is read: nothing else calls a declaration's function.
 */
export function resolveSchema<S extends Schema>(declared: Lazy<S>): S;
export function resolveSchema<S extends Schema>(declared: Lazy<S> | undefined): S | undefined;
export function resolveSchema<S extends Schema>(declared: Lazy<S> | undefined): S | undefined {
  if (declared === undefined || !isBuilder(declared)) return declared;
  const known = builtBy.get(declared);
  if (known) return known as S;
  const schema = declared();
  builtBy.set(declared, schema);
  return schema;
}

/**
 * A named schema that other schemas use (a part 2 resource, a shared parameter), built on
 * its first use: `const Pet = component(() => z.object({ owner: Owner() }))`. It returns the
 * function that gives it, the same schema at every call, so a schema that uses `Pet()` is
 * built with the one `Pet`. A reference that leads back to the schema being built (a
 * recursive one) stays behind `z.lazy(() => Pet())`, as it must with the schema itself.
 */
export function component<S extends Schema>(build: () => S): () => S {
  let schema: S | undefined;
  const built = () => {
    if (schema === undefined) {
      schema = build();
      builtBy.set(built, schema);
    }
    return schema;
  };
  return built;
}

/**
 * The schema a declaration stands for if it was built already, else undefined; it builds
 * nothing. A schema that another one is (by identity) was built before it could be compared,
 * so a lookup by identity need not build the schemas it passes over (src/mocks/sandbox).
 */
export function builtSchema<S extends Schema>(declared: Lazy<S> | undefined): S | undefined {
  if (declared === undefined || !isBuilder(declared)) return declared;
  return builtBy.get(declared) as S | undefined;
}
