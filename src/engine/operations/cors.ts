/**
 * What CORS allows on a path of declared operations, derived from the contract alone
 * (src/platform/cors.ts has the protocol): the request headers its operations read and the
 * answer headers a script may read. Nothing here is configured: a deployment says only
 * which origins may call.
 */
import {
  type Contract,
  issuerVouched,
  type Operation,
  operationShapes,
  resolveSchema,
  type SchemaDeclaration,
  verifiedField,
} from "../../contract-language/contract";
import { type CorsResource, PLATFORM_CORS } from "../../platform/cors";
import { retirementOf } from "../versions/plan";
import { objectShape } from "../zod/shape";
import { ANSWERED_BY } from "./unhandled";

/** The member names of a header schema, in lower case (header names are case-insensitive). */
function headerNames(declared: SchemaDeclaration | undefined): string[] {
  const schema = resolveSchema(declared);
  if (!schema) return [];
  return Object.keys(objectShape(schema) ?? {}).map((name) => name.toLowerCase());
}

/** The request headers the schemes an operation names are sent in (part 5). */
function credentialHeaders(contract: Contract, operation: Operation): string[] {
  const names = new Set<string>();
  for (const requirement of operation.security ?? [])
    for (const name of Object.keys(requirement)) {
      const scheme = contract.securitySchemes[name];
      if (!scheme) continue;
      // An API key in a header is read from it; in a cookie it travels only with
      // credentials (CORS_ALLOW_CREDENTIALS), never as a header a script sets.
      if (scheme.type === "apiKey") {
        if (scheme.in === "header") names.add(scheme.name.toLowerCase());
      } else if (scheme.type === "verified") {
        const field = verifiedField(scheme);
        if (field?.in === "header") names.add(field.name.toLowerCase());
        // What AWS Signature Version 4 signs beside it (the date, the body's hash, a session).
        if (scheme.verifiedBy === "aws-sigv4")
          for (const name of ["x-amz-date", "x-amz-content-sha256", "x-amz-security-token"])
            names.add(name);
      } else names.add("authorization");
    }
  return [...names];
}

/** Whether a response of the operation may carry `Location` (RFC 9110 §10.2.2): 201 or 3xx. */
function mayLocate(operation: Operation): boolean {
  return Object.keys(operation.responses).some(
    (status) => status === "201" || status === "3XX" || /^3\d\d$/.test(status),
  );
}

/**
 * What CORS allows on one path, from the operations declared there (each in all its
 * versions). Request headers: the platform's (`Accept`, `Content-Type`, `X-Request-Id`),
 * the headers each operation declares, those of its security schemes and part 9's version
 * header. Answer headers: the platform's (`X-Request-Id`, `Allow`), the response headers
 * each operation declares, and those the platform sends where it applies: `WWW-Authenticate`
 * (credentials required), `Retry-After` (rate limits, JWT schemes, events), `Deprecation`,
 * `Sunset` and `Link` (retirement), `Location` (201 or 3xx), `Accept-Post`/`Accept-Patch`.
 * Where an operation has no handler (`unhandled`), what its answers made without one use:
 * `Prefer` (RFC 7240) in, `Answered-By`, `Preference-Applied` out (./unhandled.ts).
 */
export function operationsCors(
  contract: Contract,
  operations: readonly (readonly [id: string, operation: Operation])[],
  unhandled = false,
): CorsResource {
  const request = new Set(PLATFORM_CORS.requestHeaders);
  const exposed = new Set(PLATFORM_CORS.exposedHeaders);
  const placement = contract.versioning?.versions ? contract.versioning.placement : undefined;
  if (placement?.in === "header") request.add(placement.name.toLowerCase());
  const versionRetires = Object.values(contract.versioning?.versions ?? {}).some(
    (version) => version.deprecated !== undefined,
  );
  for (const [id, declared] of operations) {
    for (const shape of operationShapes(declared)) {
      for (const name of headerNames(shape.request?.headers)) request.add(name);
      for (const name of credentialHeaders(contract, shape)) request.add(name);
      for (const response of Object.values(shape.responses))
        for (const name of headerNames(response?.headers)) exposed.add(name);
      if (mayLocate(shape)) exposed.add("location");
    }
    const secured = (declared.security ?? []).some((r) => Object.keys(r).length > 0);
    if (secured) exposed.add("www-authenticate");
    const rateLimited = Object.values(contract.limits).some(
      (limit) => limit.kind === "rate" && limit.operations.includes(id),
    );
    const jwt = (declared.security ?? []).some((r) =>
      Object.keys(r).some((name) => {
        const scheme = contract.securitySchemes[name];
        return scheme !== undefined && issuerVouched(scheme);
      }),
    );
    if (rateLimited || jwt || (declared.emits?.length ?? 0) > 0) exposed.add("retry-after");
    if (versionRetires || retirementOf(declared)?.deprecated !== undefined) {
      exposed.add("deprecation");
      exposed.add("sunset");
      exposed.add("link");
    }
    if (declared.method === "POST") exposed.add("accept-post");
    if (declared.method === "PATCH") exposed.add("accept-patch");
  }
  if (unhandled) {
    request.add("prefer");
    exposed.add(ANSWERED_BY);
    exposed.add("preference-applied");
  }
  return { requestHeaders: [...request], exposedHeaders: [...exposed] };
}
