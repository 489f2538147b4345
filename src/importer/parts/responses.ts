/**
 * Part 4's answers: each documented status (`2XX` and `default` as ranges) with its
 * headers and content; an error answer that is an error type's (part 7) is named in the
 * operation's `errors` instead.
 */
import { lazyCode, literal, propertyKey } from "../schema-code";
import { child, componentOf, follow, isObject, type Json } from "../source";
import { contentOf } from "./content";
import { responseKey } from "./context";
import type { Endpoint } from "./endpoint";
import { type ErrorTypes, errorMediaOfResponse } from "./errors";
import { type OperationSite, parameterMember } from "./parameters";

/** An operation's `responses` entries, and the error types its error answers are. */
export function operationResponses(
  ep: Endpoint,
  errorTypes: ErrorTypes,
  site: OperationSite,
): { responses: string[]; errors: string[] } {
  const responses: string[] = [];
  const errors: string[] = [];
  const responsesPointer = child(site.pointer, "responses");
  for (const [status, raw] of Object.entries(
    isObject(site.op.responses) ? site.op.responses : {},
  )) {
    const at = child(responsesPointer, status);
    const followed = follow(ep.ctx.document, raw, at);
    const response = followed.node;
    if (!isObject(response)) continue;
    const key = responseKey(status);
    if (!key) {
      ep.ctx.findings.lost(at, `response ${status}: a Worker cannot answer it`);
      continue;
    }
    const media = errorMediaOfResponse(ep.ctx, status, response);
    if (media) {
      errors.push(errorTypes.typeFor(raw, response, Number(status), at, site.id, media));
      continue;
    }
    const component =
      isObject(raw) && typeof raw.$ref === "string" ? componentOf(raw.$ref) : undefined;
    const where = component?.kind === "responses" ? followed.pointer : at;
    const code = () => responseCode(ep, response, where);
    const value =
      component?.kind === "responses"
        ? ep.shared.use(`responses/${component.name}`, component.name, "Response", code)
        : code();
    responses.push(`${key}: ${value}`);
  }
  return { responses, errors };
}

/** One answer's declaration: its description, headers and content. */
function responseCode(ep: Endpoint, response: Json, where: string): string {
  const parts: string[] = [`description: ${literal(String(response.description ?? ""))}`];
  if (isObject(response.headers)) {
    const members = responseHeaders(ep, response.headers, where);
    if (members.length > 0)
      parts.push(`headers: ${lazyCode(`z.object({ ${members.join(", ")} })`)}`);
  }
  const content = contentOf(ep, response, where, "response");
  if (content && content !== "{  }") parts.push(`content: ${content}`);
  if (isObject(response.links)) ep.ctx.findings.lost(child(where, "links"), "links: not carried");
  return `{ ${parts.join(", ")} }`;
}

/** An answer's headers, as members read like header parameters (Content-Type is the platform's). */
function responseHeaders(ep: Endpoint, headers: Json, where: string): string[] {
  const members: string[] = [];
  for (const [name, rawHeader] of Object.entries(headers)) {
    const headerAt = child(where, "headers", name);
    const { node: header } = follow(ep.ctx.document, rawHeader, headerAt);
    if (!isObject(header)) continue;
    if (name.toLowerCase() === "content-type") {
      ep.ctx.findings.changed(
        headerAt,
        "Content-Type: OpenAPI says such a header is ignored (3.1 §4.8.17.1); the platform sets it",
      );
      continue;
    }
    members.push(
      `${propertyKey(name.toLowerCase())}: ${parameterMember(ep, { ...header, in: "header" }, headerAt)}`,
    );
  }
  return members;
}
