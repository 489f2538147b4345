/**
 * What a request carries: parameters (the path item's merged in, matched by place and
 * name), the body, each media type's schema, encoding and examples.
 */
import { child, follow, isObject, type Json } from "../source";
import type { Comparer } from "./context";
import { brief, type Category, sameJson } from "./items";

/** An operation's parameters, its path item's merged in, each matched by place and name. */
export function compareParameters(
  c: Comparer,
  sourceItem: Json,
  sourceOp: Json,
  servedOp: Json,
  pointer: string,
): void {
  const merged = new Map<string, { node: Json; pointer: string }>();
  for (const [list, at] of [
    [sourceItem.parameters, pointer.replace(/\/[^/]+$/, "")],
    [sourceOp.parameters, pointer],
  ] as const) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw, i) => {
      const here = child(at, "parameters", i);
      const { node } = follow(c.source, raw, here);
      if (isObject(node)) merged.set(parameterKey(node), { node, pointer: here });
    });
  }
  const servedParameters = new Map<string, Json>();
  if (Array.isArray(servedOp.parameters))
    for (const raw of servedOp.parameters) {
      const { node } = follow(c.served, raw, "#");
      if (isObject(node)) servedParameters.set(parameterKey(node), node);
    }
  for (const [key, { node, pointer: at }] of merged) {
    if (
      node.in === "header" &&
      ["accept", "content-type", "authorization"].includes(String(node.name).toLowerCase())
    )
      continue;
    const servedParameter = servedParameters.get(key);
    c.record(
      "parameters",
      at,
      servedParameter !== undefined,
      `parameter ${String(node.name)} in ${String(node.in)} is missing`,
    );
    if (servedParameter) compareParameter(c, node, servedParameter, at);
  }
}

/** What one served parameter carries of the source's. */
function compareParameter(c: Comparer, node: Json, servedParameter: Json, at: string): void {
  c.same(
    "parameters",
    child(at, "required"),
    node.required === true || node.in === "path",
    servedParameter.required === true || servedParameter.in === "path",
    "required",
  );
  c.text(
    "parameters",
    child(at, "description"),
    node.description,
    servedParameter.description,
    "description",
  );
  if (node.deprecated === true)
    c.same("parameters", child(at, "deprecated"), true, servedParameter.deprecated, "deprecated");
  for (const key of ["style", "explode", "allowReserved", "allowEmptyValue"])
    if (key in node)
      c.same(
        "parameters",
        child(at, key),
        node[key],
        servedParameter[key] ?? defaultOf(key, String(node.in), servedParameter.style),
        key,
      );
  if (node.schema !== undefined)
    c.schemas.whole(
      "parameters",
      child(at, "schema"),
      node.schema,
      servedParameter.schema,
      "pooled",
    );
  if (isObject(node.content))
    c.record(
      "parameters",
      child(at, "content"),
      isObject(servedParameter.content),
      "a parameter serialised by content",
    );
  examplePool(
    c,
    child(at, "example"),
    [node, node.schema],
    [servedParameter, servedParameter.schema],
  );
}

/** An operation's body: served, as required, described, in each media type. */
export function requestBody(
  c: Comparer,
  sourceOp: Json,
  servedOp: Json,
  at: string,
  category: Category,
): void {
  const { node: body } = follow(c.source, sourceOp.requestBody, at);
  const { node: servedBody } = follow(c.served, servedOp.requestBody, at);
  const bodyCategory: Category = category === "webhooks" ? "webhooks" : "request bodies";
  if (!isObject(body)) return;
  c.record(bodyCategory, at, isObject(servedBody), "request body is missing");
  if (!isObject(servedBody)) return;
  if (category === "operations")
    c.same(
      bodyCategory,
      child(at, "required"),
      body.required === true,
      servedBody.required === true,
      "required",
    );
  c.text(
    bodyCategory,
    child(at, "description"),
    body.description,
    servedBody.description,
    "description",
  );
  compareContent(c, body, servedBody, at, bodyCategory);
}

/** A body's or a response's media types, each with its schema, encoding and examples. */
export function compareContent(
  c: Comparer,
  holder: Json,
  servedHolder: Json,
  pointer: string,
  category: Category,
): void {
  const servedContent = isObject(servedHolder.content) ? servedHolder.content : {};
  for (const [type, media] of Object.entries(isObject(holder.content) ? holder.content : {})) {
    const at = child(pointer, "content", type);
    const servedMedia = servedContent[type.split(";")[0]?.trim() ?? type];
    c.record(category, at, isObject(servedMedia), `media type ${type} is missing`);
    if (!isObject(media) || !isObject(servedMedia)) continue;
    if (media.schema !== undefined)
      c.schemas.whole(category, child(at, "schema"), media.schema, servedMedia.schema);
    if (isObject(media.encoding))
      c.same(category, child(at, "encoding"), media.encoding, servedMedia.encoding, "encoding");
    examplePool(c, child(at, "examples"), [media], [servedMedia]);
  }
}

/** A parameter's examples: the parameter's own and its schema's, as one pool of values. */
export function examplePool(
  c: Comparer,
  pointer: string,
  sourceHolders: unknown[],
  servedHolders: unknown[],
): void {
  const values = (holders: unknown[], document: Json) =>
    holders.flatMap((holder) => {
      if (!isObject(holder)) return [];
      const found: unknown[] = [];
      if ("example" in holder) found.push(holder.example);
      if (Array.isArray(holder.examples)) found.push(...holder.examples);
      else if (isObject(holder.examples))
        for (const raw of Object.values(holder.examples)) {
          const { node } = follow(document, raw, pointer);
          if (isObject(node) && "value" in node) found.push(node.value);
        }
      return found;
    });
  const servedValues = values(servedHolders, c.served);
  for (const value of values(sourceHolders, c.source))
    c.record(
      "examples",
      pointer,
      servedValues.some((v) => sameJson(v, value)),
      `example ${brief(value)} is missing`,
    );
}

/** A parameter is identified by where it is and its name (a header's case-insensitively). */
const parameterKey = (p: Json) =>
  `${String(p.in)}\n${p.in === "header" ? String(p.name).toLowerCase() : String(p.name)}`;

/** OpenAPI 3.1 §4.8.12.4's defaults: `form` in a query or cookie, else `simple`; `explode` for `form` only. */
const defaultOf = (key: string, location: string, style: unknown): unknown => {
  const form = location === "query" || location === "cookie" ? "form" : "simple";
  if (key === "style") return form;
  if (key === "explode") return (style ?? form) === "form";
  return false;
};
