/**
 * Part 4's bodies and answers by media type: JSON and XML with the document's own schema,
 * forms and multipart by field, other text as text, anything else as bytes; and their
 * examples (a components example used twice is one const).
 */
import { bodyKind, isDeclarableMediaType } from "../../contract-language/media-types";
import { lazyCode, literal, type Mode, propertyKey } from "../schema-code";
import { child, componentOf, follow, isObject, type Json } from "../source";
import { extensionsLost, type ImportContext } from "./context";
import type { Endpoint } from "./endpoint";

/** How a body of each kind is read. */
const MODES = {
  json: "json",
  xml: "json",
  form: "form",
  multipart: "multipart",
  binary: "binary",
  text: "plain",
} as const satisfies Record<ReturnType<typeof bodyKind>, Mode>;

/** The schema of a media type the document gives none for. */
const NO_SCHEMA: Record<ReturnType<typeof bodyKind>, string> = {
  json: "z.unknown()",
  xml: "z.unknown()",
  form: "z.unknown()",
  multipart: "z.unknown()",
  binary: "z.instanceof(Uint8Array)",
  text: "z.string()",
};

/** A body's or response's media types; undefined without `content`. */
export function contentOf(
  ep: Endpoint,
  holder: Json,
  pointer: string,
  direction: "request" | "response",
): string | undefined {
  if (!isObject(holder.content)) return undefined;
  const { findings } = ep.ctx;
  const entries: string[] = [];
  /** Each media type served, by its essence: the first declared of those that share one. */
  const served = new Map<string, string>();
  for (const [key, raw] of Object.entries(holder.content)) {
    const at = child(pointer, "content", key);
    if (!isObject(raw)) continue;
    // One media type the platform refused to serve (an XML one it cannot write), the others kept.
    const refused = ep.ctx.units.leftOut.get(at);
    if (refused !== undefined) {
      findings.lost(at, `media type ${key}: ${refused}; the other media types are served`);
      continue;
    }
    // A lone `*` (Telnyx's documents) is no media range (RFC 9110 §12.5.1 has `*/*`), but
    // its author means any media type: read as `*/*`, said, rather than leaving the body out
    // and refusing every request that sends one.
    const type = key.trim() === "*" ? "*/*" : key;
    if (type !== key) findings.changed(at, `"*" is read as */*, any media type (RFC 9110 §12.5.1)`);
    const written = type.split(";")[0]?.trim() ?? type;
    // A content key that is no media type (OSF's `data`, Zoom's `new`): that entry is left
    // out, never the operation.
    if (!isDeclarableMediaType(written)) {
      findings.lost(at, `${JSON.stringify(type)} is not a media type (RFC 9110 §8.3.1): left out`);
      continue;
    }
    const essence = written.toLowerCase();
    // `application/json; profile=a` beside `application/json` (Jellyfin's documents): the
    // platform matches a media type by its essence (RFC 9110 §8.3.1), so one is served.
    const first = served.get(essence);
    if (first !== undefined) {
      findings.lost(
        at,
        `media type ${type}: the same as ${first} without its parameters, which is served`,
      );
      continue;
    }
    served.set(essence, type);
    const kind = bodyKind(essence);
    if (type.includes(";"))
      findings.changed(
        at,
        `media type ${type}: its parameters are not part of what the platform matches`,
      );
    // XML is read by its schema, as JSON is: its xml objects are carried with it.
    if (kind === "xml") ep.xml = true;
    const mode: Mode = MODES[kind];
    const schema = lazyCode(
      raw.schema === undefined
        ? NO_SCHEMA[kind]
        : ep.writer.schema(
            raw.schema,
            child(at, "schema"),
            direction === "response" && mode === "form" ? "form" : mode,
          ),
    );
    if (isObject(raw.encoding) && !defaultEncoding(raw.encoding))
      findings.lost(
        child(at, "encoding"),
        "encoding: the platform reads form fields as OpenAPI's defaults say",
      );
    extensionsLost(ep.ctx, raw, at, "the media type");
    // An answer's example never shows a member only clients send (OpenAPI 3.1 §4.8.24.1).
    const clean =
      direction === "response" && raw.schema !== undefined
        ? (value: unknown, exampleAt: string) =>
            answerExample(ep.ctx, raw.schema, child(at, "schema"), value, exampleAt)
        : undefined;
    const examples = examplesOf(ep.ctx, raw, at, ep.shared, clean);
    entries.push(
      `${literal(type.split(";")[0]?.trim() ?? type)}: ${examples ? `{ schema: ${schema}, examples: ${examples} }` : schema}`,
    );
  }
  // Nothing left that is a media type: as if the document had given no content.
  return entries.length > 0 ? `{ ${entries.join(", ")} }` : undefined;
}

/**
 * A media type's or parameter's examples; undefined without any. A component example is a
 * shared const of the file where `shared` is given, else written where it is used.
 */
export function examplesOf(
  ctx: ImportContext,
  holder: Json,
  pointer: string,
  shared?: Endpoint["shared"],
  clean: (value: unknown, at: string) => unknown = (value) => value,
): string | undefined {
  const entries: string[] = [];
  if ("example" in holder)
    entries.push(
      `example: ${literal({ value: clean(holder.example, child(pointer, "example")) })}`,
    );
  if (isObject(holder.examples))
    for (const [name, raw] of Object.entries(holder.examples)) {
      const at = child(pointer, "examples", name);
      const { node } = follow(ctx.document, raw, at);
      if (!isObject(node)) continue;
      if (!("value" in node)) {
        ctx.findings.lost(at, "an example given by externalValue only: examples carry values");
        continue;
      }
      const value: Json = {};
      for (const key of ["summary", "description", "value"])
        if (key in node) value[key] = node[key];
      const cleaned = clean(node.value, at);
      const changed = cleaned !== node.value;
      if (changed) value.value = cleaned;
      const component =
        isObject(raw) && typeof raw.$ref === "string" ? componentOf(raw.$ref) : undefined;
      // A component example cleaned for this answer is its own, not the shared one.
      const code =
        component && shared && !changed
          ? shared.use(`examples/${component.name}`, component.name, "Example", () =>
              literal(value),
            )
          : literal(value);
      entries.push(`${propertyKey(name)}: ${code}`);
    }
  return entries.length > 0 ? `{ ${entries.join(", ")} }` : undefined;
}

/**
 * An answer's example without the members its schema marks `writeOnly` (a card's security
 * code), at any depth, each left out with a finding naming the example; the same value
 * where it holds none.
 */
function answerExample(
  ctx: ImportContext,
  schema: unknown,
  schemaAt: string,
  value: unknown,
  exampleAt: string,
): unknown {
  const dropped: string[] = [];
  const walk = (raw: unknown, v: unknown, path: string, depth: number): unknown => {
    if (depth > 32 || v === null || typeof v !== "object") return v;
    const { node } = follow(ctx.document, raw, schemaAt);
    if (!isObject(node)) return v;
    if (Array.isArray(v))
      return node.items === undefined
        ? v
        : v.map((item, i) => walk(node.items, item, `${path}/${i}`, depth + 1));
    const properties: Record<string, unknown> = {};
    for (const part of [node, ...(Array.isArray(node.allOf) ? node.allOf : [])]) {
      const { node: branch } = follow(ctx.document, part, schemaAt);
      if (isObject(branch) && isObject(branch.properties))
        Object.assign(properties, branch.properties);
    }
    if (Object.keys(properties).length === 0) return v;
    let changed = false;
    const kept: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(v as Record<string, unknown>)) {
      const declared = properties[name];
      const { node: own } = follow(ctx.document, declared, schemaAt);
      if (isObject(own) && own.writeOnly === true) {
        dropped.push(`${path}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`);
        changed = true;
        continue;
      }
      const inner =
        declared === undefined ? member : walk(declared, member, `${path}/${name}`, depth + 1);
      if (inner !== member) changed = true;
      kept[name] = inner;
    }
    return changed ? kept : v;
  };
  const cleaned = walk(schema, value, "", 0);
  if (dropped.length > 0)
    ctx.findings.changed(
      exampleAt,
      `the example holds ${dropped.join(", ")}, which the schema marks writeOnly (OpenAPI 3.1 §4.8.24.1): left out of the answer's example, and never answered`,
    );
  return cleaned;
}

/** An encoding that only restates OpenAPI's default for form fields (style form, explode true). */
function defaultEncoding(encoding: Json): boolean {
  return Object.values(encoding).every(
    (e) =>
      isObject(e) &&
      Object.keys(e).every((k) => k === "style" || k === "explode") &&
      (e.style === undefined || e.style === "form") &&
      (e.explode === undefined || e.explode === true),
  );
}
