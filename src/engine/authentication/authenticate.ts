/**
 * Part 5 enforced on each request, before its body is read. Every scheme the operation
 * names is checked, whatever the others give, so the time taken does not tell which
 * credential was wrong. A secret or var the contract names but the deployment lacks fails
 * closed (500), and so does a key set that cannot be fetched (503): never let in.
 */
import { parse as parseCookies } from "hono/utils/cookie";
import { secretNames } from "../../domain/contract";
import type { Authenticated } from "../../domain/handlers";
import type { JwtOutcome } from "../../platform/engine";
import { INTERNAL_ERROR } from "../../platform/errors";
import { log } from "../../platform/log";
import { problemResponse, statusProblem, typedProblem } from "../../platform/problem";
import type { ProblemPresenter } from "../../platform/problem-presenter";
import { INSUFFICIENT_SCOPE } from "../problem-types";
import { compareWithSecrets } from "./compare";
import { presentedCredential, presentedToken } from "./credentials";
import { jwtSettings } from "./jwt-settings";
import type { SecurityPlan } from "./plan";

export type Authentication =
  | {
      readonly ok: true;
      readonly auth: Authenticated;
      /**
       * Identifies the credential for per-credential rate limits; it is not the credential.
       * Undefined when the request was let in without one (an empty requirement).
       */
      readonly rateKey: string | undefined;
    }
  | { readonly ok: false; readonly response: Response };

/** What one scheme made of the request. */
type SchemeOutcome =
  | { readonly kind: "valid"; readonly key: string; readonly jwt?: JwtOutcome & { kind: "valid" } }
  | { readonly kind: "invalid" }
  | { readonly kind: "unavailable"; readonly reason: string };

const hex = (buffer: ArrayBuffer) =>
  [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

// RFC 9110 §15.6.4; the key set's own failure is for the log, never the client.
const UNAVAILABLE = statusProblem(
  503,
  "The request's credentials could not be verified right now. Retry later; quote the requestId if it persists.",
);

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

export async function authenticate(
  plan: SecurityPlan,
  request: Request,
  env: Readonly<Record<string, unknown>>,
  requestId: string,
  present: ProblemPresenter,
): Promise<Authentication> {
  const failClosed = (fields: Record<string, unknown>): Authentication => {
    log("error", "a secret or var named by the contract is not usable; refusing the request", {
      requestId,
      operationId: plan.operationId,
      ...fields,
    });
    return {
      ok: false,
      response: problemResponse(requestId, present("internal-error", INTERNAL_ERROR)),
    };
  };

  // What the deployment holds for each scheme, checked before any credential is looked at.
  const expected = new Map<string, readonly string[]>();
  const jwt = new Map<string, Exclude<ReturnType<typeof jwtSettings>, string>>();
  for (const [name, scheme] of plan.schemes) {
    if ("secret" in scheme) {
      // Names of secrets are configuration, not credentials, so they may be logged.
      const values = secretNames(scheme.secret)
        .map((secret) => env[secret])
        .filter((value): value is string => typeof value === "string" && value !== "");
      if (values.length === 0) return failClosed({ scheme: name, secret: scheme.secret });
      expected.set(name, values);
    } else {
      const settings = jwtSettings(scheme.jwt, env);
      if (typeof settings === "string") return failClosed({ scheme: name, problem: settings });
      jwt.set(name, settings);
    }
  }

  const outcomes = new Map<string, SchemeOutcome>();
  // Secrets are compared all at once; JWTs are verified one after another, once per
  // distinct verification, so schemes that share a key set fetch it once and then hit
  // the cache (jose cannot share an in-flight fetch between a Worker's requests).
  const token = jwt.size > 0 ? presentedToken(request) : undefined;
  const verified = new Map<string, JwtOutcome>();
  for (const [name, scheme] of plan.schemes) {
    const settings = jwt.get(name);
    if (!settings || !("jwt" in scheme)) continue;
    let outcome: JwtOutcome = { kind: "invalid" };
    if (token) {
      const key = JSON.stringify([
        settings.jwksUrl.href,
        settings.issuer,
        settings.audience,
        scheme.jwt.algorithms,
      ]);
      outcome = verified.get(key) ?? (await plan.verifyJwt(token, scheme.jwt, settings));
      verified.set(key, outcome);
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
    [...plan.schemes]
      .filter(([name]) => !jwt.has(name))
      .map(async ([name, scheme]) => {
        const { match, digest } = await compareWithSecrets(
          presentedCredential(scheme, request),
          expected.get(name) ?? [],
        );
        outcomes.set(name, match ? { kind: "valid", key: hex(digest) } : { kind: "invalid" });
      }),
  );

  const valid = (name: string) => outcomes.get(name)?.kind === "valid";
  const scopesOf = (name: string) => {
    const outcome = outcomes.get(name);
    return outcome?.kind === "valid" ? (outcome.jwt?.scopes ?? []) : [];
  };
  let forbidden: readonly string[] | undefined;
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
      };
    }
    if (!names.every(valid)) continue;
    const missing = names.flatMap((name) =>
      (requirement[name] ?? []).filter((scope) => !scopesOf(name).includes(scope)),
    );
    if (missing.length > 0) {
      forbidden ??= names.flatMap((name) => requirement[name] ?? []);
      continue;
    }
    const jwtOutcome = names
      .map((name) => outcomes.get(name))
      .find((o) => o?.kind === "valid" && o.jwt);
    const keys = names.map((name) => {
      const outcome = outcomes.get(name);
      return `${name}=${outcome?.kind === "valid" ? outcome.key : ""}`;
    });
    const rateKey = hex(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(keys.join("\n"))),
    );
    return {
      ok: true,
      auth: {
        requirement: index,
        schemes: names,
        subject: jwtOutcome?.kind === "valid" ? jwtOutcome.jwt?.subject : undefined,
        scopes: names.flatMap(scopesOf),
      },
      rateKey,
    };
  }
  if (forbidden) {
    // RFC 6750 §3.1: a valid token without the scope the operation needs.
    const scope = forbidden.join(" ");
    const problem = typedProblem(
      INSUFFICIENT_SCOPE,
      "The credentials are valid, but do not grant the scopes this operation needs.",
      {
        requiredScopes: forbidden,
      },
    );
    return {
      ok: false,
      response: problemResponse(requestId, present("insufficient-scope", problem), {
        "www-authenticate": `Bearer error="insufficient_scope", scope="${scope}"`,
      }),
    };
  }
  const unavailable = [...outcomes].find(([, outcome]) => outcome.kind === "unavailable");
  if (unavailable) {
    const [scheme, outcome] = unavailable;
    log("error", "the key set of a JWT scheme could not be fetched; refusing the request", {
      requestId,
      operationId: plan.operationId,
      scheme,
      reason: outcome.kind === "unavailable" ? outcome.reason : "",
    });
    return {
      ok: false,
      response: problemResponse(requestId, UNAVAILABLE, { "retry-after": "30" }),
    };
  }
  return {
    ok: false,
    response: problemResponse(requestId, present("authentication-required", plan.problem), {
      "www-authenticate": plan.challenge,
    }),
  };
}
