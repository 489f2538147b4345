/**
 * Part 2: `components.schemas` → named zod/mini schemas in `resources`, each after the
 * components it uses (`$ref`s stay references; cycles become `z.lazy`). Each is a
 * `component`, built on its first use, never while the Worker starts. A component named
 * like a platform schema is renamed, and says the name the document gave it.
 */
import { RESERVED_SCHEMA_NAMES } from "../../contract-language/reserved";
import type { Findings } from "../findings";
import { Identifiers, RENAMED_FROM } from "../names";
import { componentCall, literal, propertyKey } from "../schema-code";
import { child, isObject, type Json } from "../source";
import { counted, fileWriter, type ImportContext, type PartCode } from "./context";

const isReserved = (name: string) => (RESERVED_SCHEMA_NAMES as readonly string[]).includes(name);

/** The identifier (const) and the key (in `resources`) of each component schema, renames reported. */
export function resourceNames(
  schemas: Json,
  findings: Findings,
): { identifiers: Map<string, string>; resourceKeys: Map<string, string> } {
  const schemaIds = new Identifiers();
  const identifiers = new Map<string, string>();
  const resourceKeys = new Map<string, string>();
  for (const name of Object.keys(schemas)) {
    identifiers.set(name, schemaIds.take(name, "Schema"));
    let key = name;
    if (isReserved(name)) {
      // A name neither the platform nor the document itself uses (it may have a SpecProblem).
      const taken = (candidate: string) =>
        Object.hasOwn(schemas, candidate) ||
        isReserved(candidate) ||
        [...resourceKeys.values()].includes(candidate);
      key = `Spec${name}`;
      for (let n = 2; taken(key); n += 1) key = `Spec${name}${n}`;
      findings.changed(
        child("#", "components", "schemas", name),
        `renamed ${key}: the platform's own schema is called ${name}`,
      );
    }
    resourceKeys.set(name, key);
  }
  return { identifiers, resourceKeys };
}

/**
 * Part 2's file: each component schema as a const, a `component` that builds it on first
 * use, then `resources`; none without schemas.
 */
export function resourcesPart(
  ctx: ImportContext,
  schemas: Json,
  progress: (what: string, done: number, total: number) => void,
): PartCode | undefined {
  const { identifiers, resourceKeys } = ctx;
  const order = dependencyOrder(schemas);
  const emitted = new Set<string>();
  const resources = fileWriter(ctx, (name) => !emitted.has(name));
  const lines: string[] = [];
  order.forEach((name, i) => {
    progress("schemas", i + 1, order.length);
    const pointer = child("#", "components", "schemas", name);
    const schema = schemas[name];
    const id = identifiers.get(name) as string;
    // A component that cannot be converted is left out (with what uses it) in the next pass.
    let code = ctx.units.convert(pointer, () =>
      isObject(schema) && schema.type === "string" && schema.format === "binary"
        ? resources.writer.binaryCode(schema, pointer)
        : resources.writer.schema(schema, pointer, "json"),
    );
    if (code === undefined) return;
    // An alias of another component is a copy of it (zod writes `$ref` to it), not the
    // same schema under a second name.
    if (/^[A-Za-z_$][\w$]*\(\)$/.test(code) && code !== componentCall(id))
      code = `${code}.check(z.meta({}))`;
    // Renamed, it says the name the document gave it (the round-trip report reads it).
    if (resourceKeys.get(name) !== name)
      code = `${code}.check(z.meta(${literal({ [RENAMED_FROM]: name })}))`;
    lines.push(`const ${id} = component(() => ${code});`);
    emitted.add(name);
  });
  if (order.length === 0) return undefined;
  const entries = [...resourceKeys].map(([name, key]) => {
    const id = identifiers.get(name) as string;
    return id === key ? id : `${propertyKey(key)}: ${id}`;
  });
  return {
    body: `${lines.join("\n")}\n\nexport const resources = { ${entries.join(", ")} } as const satisfies Readonly<Record<string, SchemaDeclaration>>;`,
    count: order.length,
    summary: counted(order.length, "component schema"),
    uses: new Set([...resources.context.uses, "component"]),
    referenced: new Set(),
    type: "SchemaDeclaration",
  };
}

/** Component schemas in an order where each comes after the components it uses (cycles aside). */
function dependencyOrder(schemas: Json): string[] {
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (name: string) => {
    if (state.has(name) || !(name in schemas)) return;
    state.set(name, "visiting");
    for (const used of componentsUsed(schemas[name], new Set())) visit(used);
    state.set(name, "done");
    order.push(name);
  };
  for (const name of Object.keys(schemas)) visit(name);
  return order;
}

/** The component schemas a schema refers to (values such as examples aside). */
function componentsUsed(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) componentsUsed(item, found);
  else if (isObject(value))
    for (const [key, member] of Object.entries(value)) {
      if (key === "$ref" && typeof member === "string") {
        const match = /^#\/components\/schemas\/([^/]+)/.exec(member);
        if (match?.[1]) found.add(match[1].replace(/~1/g, "/").replace(/~0/g, "~"));
      } else if (!["example", "examples", "default", "const", "enum"].includes(key))
        componentsUsed(member, found);
    }
  return found;
}
