/**
 * Part 5 enforced on each request, before its body is read. Every configured scheme the
 * operation names is checked, whatever the others give, so the time taken does not tell
 * which credential was wrong.
 *
 * Alternatives are alternatives (OpenAPI 3.1 §4.8.30: any one requirement suffices): a
 * scheme whose secret or var the deployment lacks closes only its own way in. It is logged
 * once, and a request is answered 500 only when that closed way is the one it tried (it
 * presents that scheme's credential and nothing configured admits it): the deployment is
 * at fault, so the request is never let in and never told it is unauthenticated. A key set
 * that cannot be fetched is 503, never 401.
 */
import { parse as parseCookies } from "hono/utils/cookie";
import {
  introspectionOf,
  issuerVouched,
  jwtOf,
  type SecurityScheme,
  secretNames,
  type VerifiedScheme,
} from "../../contract-language/contract";
import type { Authenticated } from "../../contract-language/define-handlers";
import { INSUFFICIENT_SCOPE } from "../../contract-language/problem-catalogue";
import type { Verifier } from "../../contract-language/verifiers";
import { INTERNAL_ERROR } from "../../platform/errors";
import { log } from "../../platform/log";
import { statusProblem, typedProblem } from "../../platform/problem";
import type { Refusal } from "../refusal";
import type { SignaturesFeature } from "./aws-sigv4";
import { compareWithSecrets } from "./compare";
import { presentedCredential, presentedToken } from "./credentials";
import type { IntrospectionFeature, IntrospectionSettings } from "./introspection";
import { jwtSettings } from "./jwt-settings";
import { planSecurity, type SecurityPlan } from "./plan";
import type { JwtOutcome, JwtSettings } from "./verify-jwt";

type Authentication =
  | {
      readonly ok: true;
      readonly auth: Authenticated;
      /**
       * Identifies the credential for per-credential rate limits; it is not the credential.
       * Undefined when the request was let in without one (an empty requirement).
       */
      readonly rateKey: string | undefined;
      /** What names the caller's store under STORE_TENANCY (src/mocks/sandbox/tenancy.ts). */
      readonly identity: Identity;
    }
  | { readonly ok: false; readonly refusal: Refusal };

/** What the credentials say of the caller, beside the handler's `Authenticated`. */
export interface Identity {
  /** The verified credentials' string claims (a JWT's, introspection's, a verifier's). */
  readonly claims: Readonly<Record<string, string>>;
  /** Each scheme that let the caller in, with what identifies its credential (never the credential). */
  readonly schemes: Readonly<Record<string, string>>;
}

/** Work that may finish after the answer is sent (`ExecutionContext.waitUntil`). */
type Background = (work: Promise<unknown>) => void;

/** What one scheme made of the request. */
type SchemeOutcome =
  | {
      readonly kind: "valid";
      readonly key: string;
      readonly jwt?: JwtOutcome & { kind: "valid" };
      /** Whom a verifier said the credential names. */
      readonly subject?: string | undefined;
      /** What a verifier said it names besides. */
      readonly claims?: Readonly<Record<string, string>>;
    }
  | { readonly kind: "invalid" }
  | (JwtOutcome & { readonly kind: "unavailable" })
  /** The deployment lacks what the scheme needs: this way in is closed. */
  | { readonly kind: "unconfigured"; readonly problem: Readonly<Record<string, unknown>> };

/** What the deployment holds for one scheme, read before any credential is looked at. */
type Deployment =
  | { readonly kind: "secrets"; readonly values: readonly string[] }
  | { readonly kind: "jwt"; readonly settings: JwtSettings }
  | {
      readonly kind: "introspection";
      readonly settings: IntrospectionSettings;
      readonly feature: IntrospectionFeature;
    }
  | { readonly kind: "unconfigured"; readonly problem: Readonly<Record<string, unknown>> }
  /** AWS Signature Version 4: the access keys, by id. */
  | { readonly kind: "aws-sigv4"; readonly keys: ReadonlyMap<string, string> }
  /** The client certificate the edge verified (`request.cf.tlsClientAuth`). */
  | { readonly kind: "mutual-tls" }
  /** The deployment's verifier; none refuses every request, until one is given. */
  | { readonly kind: "code"; readonly verify: Verifier | undefined };

const hex = (buffer: ArrayBuffer) =>
  [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

// RFC 9110 §15.6.4; the key set's own failure is for the log, never the client.
const UNAVAILABLE = statusProblem(
  503,
  "The request's credentials could not be verified right now. Retry later; quote the requestId if it persists.",
);

/** The deployment's values for a scheme; names of secrets and vars may be logged, values never. */
function deploymentOf(
  plan: SecurityPlan,
  scheme: SecurityScheme,
  env: Readonly<Record<string, unknown>>,
  name: string,
): Deployment {
  if (scheme.type === "verified") return verifiedDeployment(plan, name, scheme, env);
  if ("secret" in scheme) {
    const values = secretNames(scheme.secret)
      .map((secret) => env[secret])
      .filter((value): value is string => typeof value === "string" && value !== "");
    return values.length > 0
      ? { kind: "secrets", values }
      : { kind: "unconfigured", problem: { secret: scheme.secret } };
  }
  const introspection = introspectionOf(scheme);
  if (introspection) {
    const feature = plan.introspection;
    // Never without the feature: the engine refuses to mount a contract that needs it.
    if (!feature)
      return { kind: "unconfigured", problem: { problem: "built without token introspection" } };
    const settings = feature.settings(introspection, env);
    return typeof settings === "string"
      ? { kind: "unconfigured", problem: { problem: settings } }
      : { kind: "introspection", settings, feature };
  }
  const jwt = jwtOf(scheme);
  if (!jwt)
    return { kind: "unconfigured", problem: { problem: "the scheme declares no verification" } };
  const settings = jwtSettings(jwt, env);
  return typeof settings === "string"
    ? { kind: "unconfigured", problem: { problem: settings } }
    : { kind: "jwt", settings };
}

/** What the deployment holds for a scheme the platform, or its own code, verifies. */
function verifiedDeployment(
  plan: SecurityPlan,
  name: string,
  scheme: VerifiedScheme,
  env: Readonly<Record<string, unknown>>,
): Deployment {
  if (scheme.verifiedBy === "mutual-tls") return { kind: "mutual-tls" };
  if (scheme.verifiedBy === "code") return { kind: "code", verify: plan.verifiers[name] };
  // Never without the feature: the engine refuses to mount a contract that needs it.
  if (!plan.signatures)
    return { kind: "unconfigured", problem: { problem: "built without signature verification" } };
  const names = scheme.accessKeys ? secretNames(scheme.accessKeys) : [];
  const keys = plan.signatures.accessKeys(
    names.map((name) => env[name]).filter((value): value is string => typeof value === "string"),
  );
  return keys.size > 0
    ? { kind: "aws-sigv4", keys }
    : { kind: "unconfigured", problem: { secret: scheme.accessKeys ?? [] } };
}

/**
 * Cloudflare's verdict on the client certificate (`request.cf.tlsClientAuth`): presented,
 * verified against the zone's certificate authority, and not revoked. Absent where the zone
 * does not ask for certificates (and in `wrangler dev`): no certificate is valid then.
 */
function clientCertificate(request: Request): string | undefined {
  const cf = (request as Request & { cf?: { tlsClientAuth?: Record<string, unknown> } }).cf;
  const auth = cf?.tlsClientAuth;
  if (!auth || auth.certPresented !== "1" || auth.certVerified !== "SUCCESS") return undefined;
  if (auth.certRevoked === "1") return undefined;
  const fingerprint = auth.certFingerprintSHA256;
  return typeof fingerprint === "string" && fingerprint !== "" ? fingerprint : undefined;
}

/** What a verified scheme makes of the request. */
async function verifiedOutcome(
  plan: SecurityPlan,
  deployment: Deployment,
  request: Request,
  env: Readonly<Record<string, unknown>>,
): Promise<SchemeOutcome | undefined> {
  if (deployment.kind === "aws-sigv4") {
    const outcome = await (plan.signatures as SignaturesFeature).verify(
      request,
      deployment.keys,
      plan.maxBodyBytes,
    );
    return outcome.kind === "valid"
      ? { kind: "valid", key: `aws-sigv4\n${outcome.accessKeyId}` }
      : { kind: "invalid" };
  }
  if (deployment.kind === "mutual-tls") {
    const fingerprint = clientCertificate(request);
    return fingerprint ? { kind: "valid", key: `mutual-tls\n${fingerprint}` } : { kind: "invalid" };
  }
  if (deployment.kind !== "code") return undefined;
  if (!deployment.verify) return { kind: "invalid" };
  try {
    // A copy: the body is still there for the operation.
    const verdict = await deployment.verify(request.clone(), env);
    return verdict.valid
      ? {
          kind: "valid",
          key: `code\n${verdict.subject ?? ""}`,
          subject: verdict.subject,
          ...(verdict.claims ? { claims: verdict.claims } : {}),
        }
      : { kind: "invalid" };
  } catch (error) {
    return {
      kind: "unconfigured",
      problem: {
        problem: `its verifier threw: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
}

/** Logs a scheme the deployment has not configured, once per app (per isolate). */
function reportOnce(plan: SecurityPlan, scheme: string, problem: object, requestId: string): void {
  const key = `${scheme}\n${JSON.stringify(problem)}`;
  if (plan.reported.has(key)) return;
  plan.reported.add(key);
  log("error", "a security scheme's secret or var is not usable; its way in is closed", {
    requestId,
    operationId: plan.operationId,
    scheme,
    ...problem,
  });
}

/** Whether the request carries a credential for `scheme`, valid or not. */
function presents(scheme: SecurityScheme, request: Request): boolean {
  if (scheme.type === "verified")
    return scheme.verifiedBy === "mutual-tls"
      ? clientCertificate(request) !== undefined
      : presentedCredential(scheme, request) !== undefined;
  if (issuerVouched(scheme)) return presentedToken(request) !== undefined;
  return presentedCredential(scheme, request) !== undefined;
}

/** Whether the request carries any field a scheme of the operation reads, valid or not. */
function presentsCredentials(plan: SecurityPlan, request: Request): boolean {
  const { header, query, cookie } = plan.fields;
  if ([...header].some((name) => request.headers.has(name))) return true;
  if (query.size > 0) {
    const params = new URL(request.url).searchParams;
    if ([...query].some((name) => params.has(name))) return true;
  }
  if (cookie.size === 0) return false;
  const cookies = parseCookies(request.headers.get("cookie") ?? "");
  return [...cookie].some((name) => Object.hasOwn(cookies, name));
}

/**
 * Every scheme's outcome. Secrets are compared all at once; JWTs are verified one after
 * another, once per distinct verification, so schemes that share a key set fetch it once.
 */
async function outcomesOf(
  plan: SecurityPlan,
  deployments: ReadonlyMap<string, Deployment>,
  request: Request,
  context: { env: Readonly<Record<string, unknown>>; requestId: string; background?: Background },
): Promise<Map<string, SchemeOutcome>> {
  const { env, requestId, background } = context;
  const outcomes = new Map<string, SchemeOutcome>();
  const token = presentedToken(request);
  const checked = new Map<string, JwtOutcome>();
  for (const [name, scheme] of plan.schemes) {
    const deployment = deployments.get(name);
    if (deployment?.kind === "unconfigured") {
      outcomes.set(name, { kind: "unconfigured", problem: deployment.problem });
      continue;
    }
    const verified = deployment && (await verifiedOutcome(plan, deployment, request, env));
    if (verified) {
      if (verified.kind === "unconfigured") reportOnce(plan, name, verified.problem, requestId);
      outcomes.set(name, verified);
      continue;
    }
    if (deployment?.kind === "introspection") {
      // RFC 7662: the authorization server says whether the opaque token is active.
      const outcome: JwtOutcome = token
        ? await deployment.feature.introspect(token, deployment.settings)
        : { kind: "invalid" };
      if (outcome.kind === "valid")
        outcomes.set(name, {
          kind: "valid",
          key: `${outcome.issuer}\n${outcome.subject}`,
          jwt: outcome,
        });
      else outcomes.set(name, outcome.kind === "unavailable" ? outcome : { kind: "invalid" });
      continue;
    }
    const jwt = jwtOf(scheme);
    if (deployment?.kind !== "jwt" || !jwt) continue;
    let outcome: JwtOutcome = { kind: "invalid" };
    if (token) {
      const { settings } = deployment;
      const key = JSON.stringify([
        settings.keySet,
        settings.issuer,
        settings.audience,
        jwt.algorithms,
        jwt.profile,
      ]);
      outcome = checked.get(key) ?? (await plan.verifyJwt(token, jwt, settings, background));
      checked.set(key, outcome);
    }
    if (outcome.kind === "valid")
      outcomes.set(name, {
        kind: "valid",
        key: `${outcome.issuer}\n${outcome.subject}`,
        jwt: outcome,
      });
    else if (outcome.kind === "unavailable") outcomes.set(name, outcome);
    else outcomes.set(name, { kind: "invalid" });
  }
  await Promise.all(
    [...plan.schemes].map(async ([name, scheme]) => {
      const deployment = deployments.get(name);
      if (deployment?.kind !== "secrets") return;
      const { match, digest } = await compareWithSecrets(
        presentedCredential(scheme, request),
        deployment.values,
      );
      outcomes.set(name, match ? { kind: "valid", key: hex(digest) } : { kind: "invalid" });
    }),
  );
  return outcomes;
}

/**
 * Whether the request's credentials satisfy one of the operation's requirements, and who
 * was let in; `background` (`waitUntil`) lets a key set be refreshed past the answer.
 */
export async function authenticate(
  plan: SecurityPlan,
  request: Request,
  env: Readonly<Record<string, unknown>>,
  requestId: string,
  background?: Background,
): Promise<Authentication> {
  const deployments = new Map<string, Deployment>();
  for (const [name, scheme] of plan.schemes) {
    const deployment = deploymentOf(plan, scheme, env, name);
    if (deployment.kind === "unconfigured") reportOnce(plan, name, deployment.problem, requestId);
    if (deployment.kind === "code" && !deployment.verify)
      reportOnce(
        plan,
        name,
        {
          problem:
            "no verifier is given for it (verifiers, src/handlers.ts): every request is refused",
        },
        requestId,
      );
    deployments.set(name, deployment);
  }
  const outcomes = await outcomesOf(plan, deployments, request, {
    env,
    requestId,
    ...(background ? { background } : {}),
  });
  return decide(plan, outcomes, request, requestId);
}

/** The first requirement the outcomes satisfy, or the answer that refuses the request. */
async function decide(
  plan: SecurityPlan,
  outcomes: ReadonlyMap<string, SchemeOutcome>,
  request: Request,
  requestId: string,
): Promise<Authentication> {
  const valid = (name: string) => outcomes.get(name)?.kind === "valid";
  const scopesOf = (name: string) => {
    const outcome = outcomes.get(name);
    return outcome?.kind === "valid" ? (outcome.jwt?.scopes ?? []) : [];
  };
  let forbidden: readonly string[] | undefined;
  let closedWayTried = false;
  for (const [index, requirement] of plan.requirements.entries()) {
    const names = Object.keys(requirement);
    if (names.length === 0) {
      // OpenAPI's empty requirement: credentials are optional. A request that presents one
      // is held to it (RFC 6750 §3.1: an invalid token is refused, not let in as anonymous).
      if (presentsCredentials(plan, request)) continue;
      return {
        ok: true,
        auth: { requirement: index, schemes: [], subject: undefined, scopes: [] },
        rateKey: undefined,
        identity: { claims: {}, schemes: {} },
      };
    }
    const closed = names.filter((name) => outcomes.get(name)?.kind === "unconfigured");
    if (closed.length > 0) {
      // This way in could have admitted the request only if it presents the closed
      // schemes' credentials and satisfies the rest.
      const tried = closed.every((name) => {
        const scheme = plan.schemes.get(name);
        return scheme !== undefined && presents(scheme, request);
      });
      if (tried && names.every((name) => closed.includes(name) || valid(name)))
        closedWayTried = true;
      continue;
    }
    if (!names.every(valid)) continue;
    const missing = names.flatMap((name) =>
      (requirement[name] ?? []).filter((scope) => !scopesOf(name).includes(scope)),
    );
    if (missing.length > 0) {
      forbidden ??= names.flatMap((name) => requirement[name] ?? []);
      continue;
    }
    return admitted(index, names, outcomes, scopesOf);
  }
  if (closedWayTried) {
    log("error", "a secret or var named by the contract is not usable; refusing the request", {
      requestId,
      operationId: plan.operationId,
      closed: Object.fromEntries(
        [...outcomes].flatMap(([name, o]) =>
          o.kind === "unconfigured" ? [[name, o.problem]] : [],
        ),
      ),
    });
    return { ok: false, refusal: { kind: "internal-error", problem: INTERNAL_ERROR } };
  }
  if (forbidden) return insufficientScope(forbidden);
  const unavailable = [...outcomes].find(([, outcome]) => outcome.kind === "unavailable");
  if (unavailable) {
    const [scheme, outcome] = unavailable;
    const retryAfter = (outcome.kind === "unavailable" && outcome.retryAfter) || 30;
    const issuer = introspectionOf(plan.schemes.get(scheme) as SecurityScheme)
      ? "the token introspection endpoint of a scheme could not be asked"
      : "the key set of a JWT scheme could not be fetched";
    log("error", `${issuer}; refusing the request`, {
      requestId,
      operationId: plan.operationId,
      scheme,
      reason: outcome.kind === "unavailable" ? outcome.reason : "",
      retryAfter,
    });
    // RFC 9110 §10.2.3: when the key set's host (or the introspection endpoint) is asked again.
    return {
      ok: false,
      refusal: {
        kind: "service-unavailable",
        problem: UNAVAILABLE,
        headers: { "retry-after": String(retryAfter) },
      },
    };
  }
  return {
    ok: false,
    refusal: {
      kind: "authentication-required",
      problem: plan.problem,
      headers: { "www-authenticate": plan.challenge },
    },
  };
}

/** Who was let in by requirement `index`, and the key per-credential limits count it by. */
async function admitted(
  index: number,
  names: readonly string[],
  outcomes: ReadonlyMap<string, SchemeOutcome>,
  scopesOf: (name: string) => readonly string[],
): Promise<Authentication> {
  const jwtOutcome = names
    .map((name) => outcomes.get(name))
    .find((o) => o?.kind === "valid" && o.jwt);
  const verifiedSubject = names
    .map((name) => outcomes.get(name))
    .find((o) => o?.kind === "valid" && o.subject !== undefined);
  const keys = names.map((name) => {
    const outcome = outcomes.get(name);
    return `${name}=${outcome?.kind === "valid" ? outcome.key : ""}`;
  });
  const identity = { claims: {} as Record<string, string>, schemes: {} as Record<string, string> };
  for (const name of names) {
    const outcome = outcomes.get(name);
    if (outcome?.kind !== "valid") continue;
    identity.schemes[name] = outcome.key;
    Object.assign(identity.claims, outcome.jwt?.claims, outcome.claims);
  }
  const rateKey = hex(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(keys.join("\n"))),
  );
  return {
    ok: true,
    auth: {
      requirement: index,
      schemes: names,
      subject:
        jwtOutcome?.kind === "valid"
          ? jwtOutcome.jwt?.subject
          : verifiedSubject?.kind === "valid"
            ? verifiedSubject.subject
            : undefined,
      scopes: names.flatMap(scopesOf),
    },
    rateKey,
    identity,
  };
}

/** RFC 6750 §3.1: a valid token without the scope the operation needs. */
function insufficientScope(scopes: readonly string[]): Authentication {
  const problem = typedProblem(
    INSUFFICIENT_SCOPE,
    "The credentials are valid, but do not grant the scopes this operation needs.",
    { requiredScopes: scopes },
  );
  return {
    ok: false,
    refusal: {
      kind: "insufficient-scope",
      problem,
      headers: {
        "www-authenticate": `Bearer error="insufficient_scope", scope="${scopes.join(" ")}"`,
      },
    },
  };
}

/** Part 5 as the serving engine uses it: in a Worker only when part 5 declares a scheme. */
export const SECURITY_FEATURE = { plan: planSecurity, authenticate } as const;

export type SecurityFeature = typeof SECURITY_FEATURE;
