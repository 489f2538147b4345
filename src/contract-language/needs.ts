/**
 * What a contract needs of the code that serves it, read from its declarations: the
 * operation engine, zod's JSON Schema converter (to document and check it, at build time),
 * the JWT verifier, the XML codec. Each is a type, so an entry that leaves out what its
 * contract needs does not compile, and a function for a contract the compiler cannot see
 * (plain JavaScript, a wide `Contract` type), so the app refuses it instead.
 */
import { type Contract, operationShapes } from "./contract";
import { bodyKind } from "./media-types";

type NonEmpty<R> = [keyof R] extends [never] ? false : true;

/** Whether an operation declares any schema: a request part, a response body or headers. */
type OperationSchemas<O> =
  | (O extends { readonly request: infer Q } ? NonEmpty<Q> : false)
  | (O extends { readonly responses: infer R }
      ? {
          [S in keyof R]: R[S] extends { readonly content: object } | { readonly headers: object }
            ? true
            : false;
        }[keyof R]
      : false);

/**
 * The contract declares something the operation engine serves or documents: anything in
 * parts 2 to 9. Part 1 (what the service does) is all the platform documents by itself.
 */
export type NeedsEngine<C extends Contract> = true extends
  | NonEmpty<C["resources"]>
  | NonEmpty<C["states"]>
  | NonEmpty<C["operations"]>
  | NonEmpty<C["securitySchemes"]>
  | NonEmpty<C["events"]>
  | NonEmpty<C["errors"]>
  | NonEmpty<C["limits"]>
  | (C["versioning"] extends undefined ? false : true)
  ? true
  : false;

/** The same, for a contract the compiler cannot see (JavaScript, a wide `Contract` type). */
export function needsEngine(contract: Contract): boolean {
  const { purpose: _documentedByThePlatform, versioning, ...parts } = contract;
  return (
    versioning !== undefined || Object.values(parts).some((part) => Object.keys(part).length > 0)
  );
}

/** The contract declares a schema, which the OpenAPI document needs converted. */
export type NeedsJsonSchema<C extends Contract> = true extends
  | NonEmpty<C["resources"]>
  | NonEmpty<C["events"]>
  | { [K in keyof C["operations"]]: OperationSchemas<C["operations"][K]> }[keyof C["operations"]]
  ? true
  : false;

/** Part 5 declares a scheme whose bearer tokens are JWTs verified here. */
export function needsJwt(contract: Contract): boolean {
  return Object.values(contract.securitySchemes).some((scheme) => "jwt" in scheme);
}

/** An XML media type (RFC 7303 §3, §9.2), in any case: `application/xml`, `text/xml`, `*+xml`. */
type XmlMediaType = "application/xml" | "text/xml" | `${string}/${string}+xml`;

/** Whether a body's or an answer's media types include an XML one. */
type HasXml<Content> = true extends {
  [M in keyof Content & string]: Lowercase<M> extends XmlMediaType ? true : false;
}[keyof Content & string]
  ? true
  : false;

/** Whether a request or responses declaration has an XML body or answer. */
type DeclarationXml<Q, R> =
  | (Q extends { readonly body: infer B } ? HasXml<B> : false)
  | {
      [S in keyof R]: R[S] extends { readonly content: infer C } ? HasXml<C> : false;
    }[keyof R];

/** An operation, or one of its part 9 variants, declares an XML media type. */
type OperationXml<O> =
  | DeclarationXml<
      O extends { readonly request: infer Q } ? Q : unknown,
      O extends { readonly responses: infer R } ? R : unknown
    >
  | (O extends { readonly variants: readonly (infer V)[] }
      ? DeclarationXml<
          V extends { readonly request: infer Q } ? Q : unknown,
          V extends { readonly responses: infer R } ? R : unknown
        >
      : false);

/** Part 4 declares an XML body or answer, which the XML codec reads and writes. */
export type NeedsXml<C extends Contract> = true extends {
  [K in keyof C["operations"]]: OperationXml<C["operations"][K]>;
}[keyof C["operations"]]
  ? true
  : false;

/**
 * The features of the serving engine, each of which ships only in a Worker whose contract uses
 * it (src/build/generate.ts chooses them; the engine refuses to mount a contract that needs
 * one it was not given): part 9's versions and dated deprecations (RFC 9745, RFC 8594),
 * part 8's rate limits, part 5's credentials, its token introspection (RFC 7662), request
 * signatures (AWS Signature Version 4) and bearer JWTs (RFC 7519, with jose), part
 * 3's transitions, part 6's events, part 7's error model, and request bodies read as forms
 * (urlencoded or multipart, RFC 7578).
 */
export const SERVING_FEATURES = [
  "versions",
  "rateLimits",
  "security",
  "introspection",
  "signatures",
  "jwt",
  "states",
  "events",
  "errorModel",
  "forms",
] as const;

export type ServingFeature = (typeof SERVING_FEATURES)[number];

const declares = (part: object) => Object.keys(part).length > 0;

/** The serving engine's features `contract` uses, in `SERVING_FEATURES`' order. */
export function servingFeatures(contract: Contract): ServingFeature[] {
  const shapes = Object.values(contract.operations).flatMap(operationShapes);
  const uses: Record<ServingFeature, boolean> = {
    // Negotiated once part 9 says where a client states a version; a dated deprecation of
    // one operation is served by the same step (its Deprecation, Sunset and 410).
    versions:
      (contract.versioning?.versions !== undefined &&
        contract.versioning.placement !== undefined) ||
      shapes.some((shape) => typeof shape.deprecated === "object"),
    rateLimits: Object.values(contract.limits).some((limit) => limit.kind === "rate"),
    security: declares(contract.securitySchemes),
    introspection: Object.values(contract.securitySchemes).some(
      (scheme) => "introspection" in scheme,
    ),
    jwt: needsJwt(contract),
    signatures: Object.values(contract.securitySchemes).some(
      (scheme) => scheme.type === "verified" && scheme.verifiedBy === "aws-sigv4",
    ),
    states: declares(contract.states),
    events: declares(contract.events),
    errorModel: declares(contract.errors),
    forms: shapes.some((shape) =>
      Object.keys(shape.request?.body ?? {}).some((type) => {
        const kind = bodyKind(type);
        return kind === "form" || kind === "multipart";
      }),
    ),
  };
  return SERVING_FEATURES.filter((part) => uses[part]);
}
