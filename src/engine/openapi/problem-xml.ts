/**
 * `application/problem+xml` in the document, where it is served: once the contract declares
 * an XML media type, every problem answer of every operation may be XML (the app negotiates
 * it, src/engine/operations/problem-form.ts), so each of them, and each of part 7's
 * `components.responses`, documents it beside `application/problem+json`, with the same
 * schema and the `xml` objects (OpenAPI 3.1 §4.8.26) of RFC 9457 Appendix B's format: the
 * root `problem` in the namespace `urn:ietf:rfc:7807`, every array wrapped by its member's
 * element with each item an `i`. The platform's problem schemas that carry arrays say so too
 * (an `xml` object is only read for XML, so the JSON they describe is unchanged). The
 * platform's own paths (`/_service`) stay JSON only.
 */
import type { Contract } from "../../contract-language/contract";
import type { Json } from "../../platform/openapi/document";
import { COMPONENT, PLATFORM, PROBLEM_MEDIA } from "../../platform/openapi/problems";

const PROBLEM_XML = "application/problem+xml";
/** RFC 9457 Appendix B: the problem element and its namespace. */
const ROOT = { name: "problem", namespace: "urn:ietf:rfc:7807" };

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A copy of `schema` whose arrays, at any depth short of a `$ref`, say Appendix B's form:
 * wrapped by their member's element, each item an element `i`.
 */
function appendixB(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(appendixB);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema))
    out[key] = key === "const" || key === "enum" || key === "examples" ? value : appendixB(value);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("array") || "items" in schema) {
    out.xml = { ...(isObject(schema.xml) ? schema.xml : {}), wrapped: true };
    const items = isObject(out.items) ? out.items : {};
    out.items = { ...items, xml: { ...(isObject(items.xml) ? items.xml : {}), name: "i" } };
  }
  return out;
}

/** Every component schema a JSON value refers to. */
function refsOf(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) refsOf(item, into);
  else if (isObject(value))
    for (const [key, child] of Object.entries(value))
      if (key === "$ref" && typeof child === "string" && child.startsWith(COMPONENT))
        into.add(decodeURIComponent(child.slice(COMPONENT.length)));
      else refsOf(child, into);
}

/** A response object with problem+xml beside its problem+json, if it has one. */
function withXml(response: unknown, reached: Set<string>): unknown {
  if (!isObject(response) || !isObject(response.content)) return response;
  const json = response.content[PROBLEM_MEDIA];
  if (!isObject(json) || PROBLEM_XML in response.content) return response;
  const schema = { ...(appendixB(json.schema) as Json), xml: ROOT };
  refsOf(schema, reached);
  return { ...response, content: { ...response.content, [PROBLEM_XML]: { schema } } };
}

/** The document with problem+xml documented wherever it is served. */
export function withProblemXml(document: Json, contract: Contract): Json {
  const reached = new Set<string>();
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) {
      paths[path] = item;
      continue;
    }
    const methods: Record<string, unknown> = {};
    for (const [method, op] of Object.entries(item)) {
      const ours =
        isObject(op) && typeof op.operationId === "string" && op.operationId in contract.operations;
      methods[method] =
        ours && isObject(op.responses)
          ? {
              ...op,
              responses: Object.fromEntries(
                Object.entries(op.responses).map(([status, r]) => [status, withXml(r, reached)]),
              ),
            }
          : op;
    }
    paths[path] = methods;
  }
  const components = isObject(document.components) ? document.components : {};
  const responses = Object.fromEntries(
    Object.entries(isObject(components.responses) ? components.responses : {}).map(([name, r]) => [
      name,
      withXml(r, reached),
    ]),
  );
  // The platform's problem schemas those answers refer to, with Appendix B's arrays.
  const schemas = { ...(isObject(components.schemas) ? components.schemas : {}) };
  for (const pending = [...reached]; pending.length > 0; ) {
    const name = pending.pop() as string;
    const schema = schemas[name];
    if (!isObject(schema) || schema[PLATFORM] !== true) continue;
    schemas[name] = appendixB(schema);
    const next = new Set<string>();
    refsOf(schema, next);
    for (const found of next)
      if (!reached.has(found)) {
        reached.add(found);
        pending.push(found);
      }
  }
  return { ...document, paths, components: { ...components, responses, schemas } };
}
