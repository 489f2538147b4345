/**
 * Part 5 planned: what each operation requires is decided once, when the app is built
 * (`authenticate.ts` checks it on each request): the requirements, the challenge a 401
 * carries, the problems it answers with, and the request fields that carry credentials.
 */
import {
  type Contract,
  type Operation,
  type SecurityRequirement,
  type SecurityScheme,
  type VerifiedScheme,
  verifiedField,
} from "../../contract-language/contract";
import { AUTHENTICATION_REQUIRED } from "../../contract-language/problem-catalogue";
import type { Verifier } from "../../contract-language/verifiers";
import { MAX_BODY_BYTES } from "../../platform/defaults";
import { type ProblemDetails, typedProblem } from "../../platform/problem";
import type { HiddenFields } from "../request/plan";
import type { SignaturesFeature } from "./aws-sigv4";
import type { IntrospectionFeature } from "./introspection";
import type { JwtVerifier } from "./verify-jwt";

export interface SecurityPlan {
  /**
   * Misconfigured schemes already logged, shared by every operation of the app: each is
   * logged once per isolate, not at every request.
   */
  readonly reported: Set<string>;
  readonly operationId: string;
  /** Any one requirement suffices; every scheme it names must be satisfied, with its scopes. */
  readonly requirements: readonly SecurityRequirement[];
  /** Every scheme any requirement names. */
  readonly schemes: ReadonlyMap<string, SecurityScheme>;
  /** RFC 9110 §11.6.1: a 401 carries a challenge for each scheme the operation accepts. */
  readonly challenge: string;
  readonly problem: ProblemDetails;
  /** Request fields that carry credentials; request schemas and handlers never see them. */
  readonly fields: HiddenFields;
  /** Verifies the JWTs of the operation's JWT schemes (the app refuses to start without it). */
  readonly verifyJwt: JwtVerifier;
  /** Asks whether opaque tokens are active (RFC 7662): given where a scheme introspects. */
  readonly introspection: IntrospectionFeature | undefined;
  /** The deployment's verifiers of the schemes only code verifies, by scheme name. */
  readonly verifiers: Readonly<Record<string, Verifier | undefined>>;
  /** Verifies request signatures (AWS SigV4): given where a scheme is one. */
  readonly signatures: SignaturesFeature | undefined;
  /** The most of a body read to check a request signature (AWS SigV4 hashes the body). */
  readonly maxBodyBytes: number;
}

/** What the deployment gives part 5 beyond the contract: its verifiers, and the body cap. */
interface SecurityDeployment {
  readonly verifiers?: Readonly<Record<string, Verifier | undefined>>;
  readonly maxBodyBytes?: number;
  readonly signatures?: SignaturesFeature | undefined;
}

/** Never called: the app does not start with a JWT scheme and no verifier. */
const NO_VERIFIER: JwtVerifier = async () => ({
  kind: "misconfigured",
  reason: "no JWT verifier was passed to createApp",
});

function challengeOf(scheme: SecurityScheme): string {
  if (scheme.type === "verified") return verifiedChallenge(scheme);
  if (scheme.type === "apiKey") return `ApiKey in="${scheme.in}", name="${scheme.name}"`;
  if (scheme.type === "http" && scheme.scheme === "basic")
    return `Basic realm="${scheme.realm}", charset="UTF-8"`; // RFC 7617 §2.1
  // RFC 6750 §3; no error code, so missing and wrong answer alike. OAuth 2 and OpenID
  // Connect access tokens are bearer tokens too.
  return "Bearer";
}

/**
 * The challenge of a verified scheme (RFC 9110 §11.6.1: a 401 carries one for each): AWS's
 * `AWS4-HMAC-SHA256`, `ClientCertificate` for mutual TLS (no auth-scheme is registered for
 * it), and otherwise the scheme as the API declares it.
 */
function verifiedChallenge(scheme: VerifiedScheme): string {
  const { declared } = scheme;
  if (scheme.verifiedBy === "aws-sigv4") return "AWS4-HMAC-SHA256";
  if (scheme.verifiedBy === "mutual-tls" || declared.type === "mutualTLS")
    return "ClientCertificate";
  if (declared.type === "apiKey") return `ApiKey in="${declared.in}", name="${declared.name}"`;
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(declared.scheme ?? "")
    ? (declared.scheme as string)
    : "ApiKey";
}

/** What an operation requires (checked by `checkSecurity`); undefined when it requires no credential. */
export function planSecurity(
  contract: Contract,
  id: string,
  operation: Operation,
  verifyJwt: JwtVerifier | undefined,
  reported: Set<string> = new Set(),
  introspection?: IntrospectionFeature,
  deployment: SecurityDeployment = {},
): SecurityPlan | undefined {
  if (operation.security === undefined || operation.security.length === 0) return undefined;
  const schemes = new Map<string, SecurityScheme>();
  for (const requirement of operation.security) {
    for (const name of Object.keys(requirement)) {
      const scheme = contract.securitySchemes[name];
      if (scheme) schemes.set(name, scheme);
    }
  }
  const header = new Set<string>();
  const query = new Set<string>();
  const cookie = new Set<string>();
  for (const scheme of schemes.values()) {
    if (scheme.type === "verified") {
      const field = verifiedField(scheme);
      if (field?.in === "header") header.add(field.name.toLowerCase());
      else if (field) (field.in === "query" ? query : cookie).add(field.name);
    } else if (scheme.type !== "apiKey") header.add("authorization");
    else if (scheme.in === "header") header.add(scheme.name.toLowerCase());
    else (scheme.in === "query" ? query : cookie).add(scheme.name);
  }
  // One challenge per auth-scheme: several bearer schemes share one "Bearer".
  const challenge = [...new Set([...schemes.values()].map(challengeOf))].join(", ");
  return {
    reported,
    operationId: id,
    requirements: operation.security,
    schemes,
    challenge,
    problem: typedProblem(
      AUTHENTICATION_REQUIRED,
      "This operation requires credentials, and the request carries none that are valid.",
      { security: operation.security },
    ),
    fields: { header, query, cookie },
    verifyJwt: verifyJwt ?? NO_VERIFIER,
    introspection,
    verifiers: deployment.verifiers ?? {},
    signatures: deployment.signatures,
    maxBodyBytes: deployment.maxBodyBytes ?? MAX_BODY_BYTES,
  };
}
