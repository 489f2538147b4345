/**
 * Part 5's declarations, checked when the app starts: a scheme that could not be enforced
 * as written, or an operation whose requirement could not be met or says nothing, stops
 * the Worker from starting.
 */
import {
  type Contract,
  introspectionOf,
  issuerVouched,
  JWT_ALGORITHMS,
  type JwtVerification,
  jwtOf,
  type SecurityScheme,
  secretNames,
  type VerifiedScheme,
  verifiedField,
} from "../../contract-language/contract";
import { isHttpUrl, isUrlReference } from "../../contract-language/urls";
import { isBindingName } from "../bindings";

const SCHEME_NAME = /^[A-Za-z0-9._-]+$/; // OpenAPI 3.1 §4.8.7: component keys
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/; // RFC 9110 §5.1: token
const QUOTABLE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/; // qdtext without '"' and '\'
// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * The form of the credential a scheme reads in `Authorization`, or undefined where it reads
 * another field: `Basic` for http basic (RFC 7617), `Bearer` for every other http and OAuth
 * scheme (RFC 6750 §2.1), and the header's whole value for an API key named so (SendGrid's
 * documents declare their key so). A request sends one `Authorization` (RFC 9110 §11.6.2), so
 * schemes of one requirement that read it must read the same form: one credential, which each
 * of them then verifies (Google's documents name two OAuth2 schemes in one requirement).
 */
function authorizationForm(scheme: SecurityScheme): "Basic" | "Bearer" | "whole" | undefined {
  if (scheme.type === "verified") {
    const field = verifiedField(scheme);
    return field?.in === "header" && field.name.toLowerCase() === "authorization"
      ? "whole"
      : undefined;
  }
  if (scheme.type === "apiKey")
    return scheme.in === "header" && scheme.name.toLowerCase() === "authorization"
      ? "whole"
      : undefined;
  return scheme.type === "http" && scheme.scheme === "basic" ? "Basic" : "Bearer";
}

/** The scopes a requirement may ask of a scheme: its declared ones, any for JWTs, none otherwise. */
function grantableScopes(scheme: SecurityScheme): ReadonlySet<string> | "any" {
  if (scheme.type === "oauth2")
    return new Set(Object.values(scheme.flows).flatMap((flow) => Object.keys(flow?.scopes ?? {})));
  return issuerVouched(scheme) ? "any" : new Set();
}

function checkJwt(jwt: JwtVerification, fail: (why: string) => Error): void {
  for (const field of ["jwksUrl", "issuer", "audience"] as const) {
    if (!isBindingName(jwt[field]))
      throw fail(`jwt.${field} must name a Worker var, ${JSON.stringify(jwt[field])} cannot`);
  }
  const algorithms = jwt.algorithms ?? [];
  if (jwt.algorithms && algorithms.length === 0) throw fail("jwt.algorithms names none");
  for (const algorithm of algorithms) {
    // RFC 8725 §3.1: an explicit list, and only asymmetric ones (no "none", no HS*, so a
    // public key can never be used as an HMAC secret).
    if (!(JWT_ALGORITHMS as readonly string[]).includes(algorithm))
      throw fail(`jwt.algorithms: ${String(algorithm)} is not an asymmetric JWS algorithm`);
  }
  if (jwt.profile !== undefined && jwt.profile !== "rfc9068")
    throw fail(`jwt.profile: ${String(jwt.profile)} is not a profile (only "rfc9068" is)`);
}

function checkScheme(name: string, scheme: SecurityScheme): void {
  const fail = (why: string) => new Error(`security scheme ${name}: ${why}`);
  if (!SCHEME_NAME.test(name)) throw fail("the name must match [A-Za-z0-9._-]+");
  if ("secret" in scheme) {
    const names = secretNames(scheme.secret);
    if (names.length === 0) throw fail("secret names no Worker secret");
    for (const secret of names)
      if (!isBindingName(secret))
        throw fail(`secret ${JSON.stringify(secret)} is not a valid binding name`);
  }
  const [jwt, introspection] = [jwtOf(scheme), introspectionOf(scheme)];
  if (jwt) checkJwt(jwt, fail);
  if (introspection) {
    const { endpoint, clientId, clientSecret, audience } = introspection;
    for (const [field, value] of Object.entries({ endpoint, clientId, clientSecret, audience }))
      if (value !== undefined && !isBindingName(value))
        throw fail(
          `introspection.${field} must name a Worker var, ${JSON.stringify(value)} cannot`,
        );
  }
  switch (scheme.type) {
    case "apiKey":
      if (!["header", "query", "cookie"].includes(scheme.in))
        throw fail("in must be header, query or cookie");
      if (!FIELD_NAME.test(scheme.name)) throw fail("the key's name must be an HTTP token");
      return;
    case "http":
      if (scheme.scheme === "basic") {
        if (!QUOTABLE.test(scheme.realm) || scheme.realm === "")
          throw fail("the realm must be printable ASCII without quotes or backslashes");
      } else if (scheme.scheme === "bearer") {
        const ways = ["secret", "jwt", "introspection"].filter((way) => way in scheme);
        if (ways.length !== 1)
          throw fail(
            "a bearer scheme is compared with a secret, verified as a JWT, or introspected (RFC 7662): exactly one",
          );
      } else {
        throw fail("an http scheme must be bearer or basic");
      }
      return;
    case "oauth2": {
      const flows = Object.entries(scheme.flows ?? {});
      if (flows.length === 0) throw fail("flows declares no flow");
      for (const [flow, declared] of flows) {
        for (const url of [declared?.authorizationUrl, declared?.tokenUrl, declared?.refreshUrl])
          if (url !== undefined && !isUrlReference(url))
            throw fail(`flows.${flow}: ${url} is neither a URL nor a relative reference`);
        for (const scope of Object.keys(declared?.scopes ?? {}))
          if (!SCOPE_TOKEN.test(scope))
            throw fail(
              `flows.${flow}: scope ${JSON.stringify(scope)} is not a scope token (RFC 6749 §3.3)`,
            );
      }
      return;
    }
    case "openIdConnect":
      if (!isHttpUrl(scheme.openIdConnectUrl)) throw fail("openIdConnectUrl must be a URL");
      return;
    case "verified":
      checkVerified(scheme, fail);
      return;
    default:
      throw fail(
        `type ${String((scheme as { type: unknown }).type)} is not a security scheme type`,
      );
  }
}

/** A scheme the platform or the deployment's code verifies: what it needs to be enforced. */
function checkVerified(scheme: VerifiedScheme, fail: (why: string) => Error): void {
  const { declared, verifiedBy } = scheme;
  if (!["apiKey", "http", "mutualTLS"].includes(declared?.type))
    throw fail("declared.type must be apiKey, http or mutualTLS");
  if (declared.type === "apiKey") {
    if (!["header", "query", "cookie"].includes(declared.in ?? ""))
      throw fail("declared.in must be header, query or cookie");
    if (!FIELD_NAME.test(declared.name ?? "")) throw fail("declared.name must be an HTTP token");
  }
  if (verifiedBy === "aws-sigv4") {
    const names = scheme.accessKeys ? secretNames(scheme.accessKeys) : [];
    if (names.length === 0) throw fail("accessKeys names no Worker secret");
    for (const secret of names)
      if (!isBindingName(secret))
        throw fail(`accessKeys ${JSON.stringify(secret)} is not a valid binding name`);
    if (
      declared.type !== "apiKey" ||
      declared.in !== "header" ||
      declared.name?.toLowerCase() !== "authorization"
    )
      throw fail(
        "an AWS signature travels in the Authorization header (declared as an apiKey there)",
      );
  } else if (verifiedBy !== "mutual-tls" && verifiedBy !== "code")
    throw fail("verifiedBy must be aws-sigv4, mutual-tls or code");
}

/** The schemes, then every operation's `security`. */
export function checkSecurity(contract: Contract): void {
  for (const [name, scheme] of Object.entries(contract.securitySchemes)) checkScheme(name, scheme);
  const declared = Object.keys(contract.securitySchemes).length > 0;
  for (const [id, operation] of Object.entries(contract.operations)) {
    const fail = (why: string) => new Error(`operation ${id}: ${why}`);
    if (operation.security === undefined) {
      // Nothing is left open by omission.
      if (declared) throw fail("part 5 declares security schemes, so security must be declared");
      continue;
    }
    for (const requirement of operation.security) {
      const names = Object.keys(requirement);
      const forms = new Set<string>();
      for (const name of names) {
        const scheme = contract.securitySchemes[name];
        if (!scheme) throw fail(`security names ${name}, which part 5 does not declare`);
        const form = authorizationForm(scheme);
        if (form) forms.add(form);
        const grantable = grantableScopes(scheme);
        for (const scope of requirement[name] ?? []) {
          if (grantable !== "any" && !grantable.has(scope))
            throw fail(`security asks ${name} for scope ${scope}, which it does not grant`);
          if (!SCOPE_TOKEN.test(scope))
            throw fail(`scope ${JSON.stringify(scope)} is not a scope token`);
        }
      }
      if (forms.size > 1)
        throw fail(
          `one requirement needs two Authorization credentials (${[...forms].join(" and ")}), which cannot both be sent`,
        );
    }
  }
}
