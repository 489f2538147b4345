/**
 * Answers: each documented status, described, with its content and headers.
 */
import { child, follow, isObject, type Json } from "../source";
import type { Comparer } from "./context";
import { compareContent, examplePool } from "./requests";

/** One response: served at its status, described, with its content and headers. */
export function compareResponse(
  c: Comparer,
  status: string,
  raw: unknown,
  servedRaw: unknown,
  at: string,
  category: "responses" | "webhooks",
): void {
  const { node: response } = follow(c.source, raw, at);
  const { node: servedResponse } = follow(c.served, servedRaw, at);
  if (!isObject(response)) return;
  c.record(category, at, isObject(servedResponse), `response ${status} is missing`);
  if (!isObject(servedResponse)) return;
  c.text(
    category,
    child(at, "description"),
    response.description,
    saidWhole(response.description, servedResponse.description),
    "description",
  );
  if (isObject(response.links)) c.record(category, child(at, "links"), false, "links");
  compareContent(c, response, servedResponse, at, category);
  const servedHeaders = lowerKeys(isObject(servedResponse.headers) ? servedResponse.headers : {});
  for (const [name, rawHeader] of Object.entries(
    isObject(response.headers) ? response.headers : {},
  )) {
    if (name.toLowerCase() === "content-type") continue;
    compareHeader(
      c,
      name,
      rawHeader,
      servedHeaders[name.toLowerCase()],
      child(at, "headers", name),
    );
  }
}

/** One response header: served, as required, described, deprecated, with its schema and examples. */
function compareHeader(
  c: Comparer,
  name: string,
  rawHeader: unknown,
  servedRaw: unknown,
  headerAt: string,
): void {
  const { node: header } = follow(c.source, rawHeader, headerAt);
  const { node: servedHeader } = follow(c.served, servedRaw, headerAt);
  if (!isObject(header)) return;
  c.record("response headers", headerAt, isObject(servedHeader), `header ${name} is missing`);
  if (!isObject(servedHeader)) return;
  c.same(
    "response headers",
    child(headerAt, "required"),
    header.required === true,
    servedHeader.required === true,
    "required",
  );
  c.text(
    "response headers",
    child(headerAt, "description"),
    header.description,
    servedHeader.description,
    "description",
  );
  if (header.deprecated === true)
    c.same(
      "response headers",
      child(headerAt, "deprecated"),
      true,
      servedHeader.deprecated,
      "deprecated",
    );
  if (header.schema !== undefined)
    c.schemas.whole(
      "response headers",
      child(headerAt, "schema"),
      header.schema,
      servedHeader.schema,
      "pooled",
    );
  examplePool(
    c,
    child(headerAt, "example"),
    [header, header.schema],
    [servedHeader, servedHeader.schema],
  );
}

const lowerKeys = (record: Json): Json =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k.toLowerCase(), v]));

/**
 * The source's description, if the served one says it whole: a presented platform failure
 * says more after the error type's own words, and an error type's short title comes before
 * them where the description is longer than a title (RFC 9457 §3.1.3).
 */
function saidWhole(source: unknown, served: unknown): unknown {
  if (typeof source !== "string" || typeof served !== "string") return served;
  return served.includes(source.trim()) ? source.trim() : served;
}
