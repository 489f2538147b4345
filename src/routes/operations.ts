/**
 * The service's routes, derived from part 4: each declared operation becomes a method on
 * its path; a path it does not declare is 404, a method it does not declare on a declared
 * path 405 with `Allow`. An operation without a handler still validates its input, then
 * answers 501.
 */
import type { Context, Handler, Hono } from "hono";
import { authenticate, planSecurity } from "../authentication/authenticate";
import {
  type Contract,
  OPERATION_METHODS,
  type Operation,
  type ResponseDeclaration,
} from "../domain/contract";
import type { AnyHandler, AnyResult } from "../domain/handlers";
import { OPERATION_NOT_IMPLEMENTED } from "../http/declared-problem-types";
import type { AppEnv } from "../http/env";
import { INTERNAL_ERROR } from "../http/errors";
import { log } from "../http/log";
import { SERVICE_PREFIX } from "../http/paths";
import { problemResponse, typedProblem } from "../http/problem";
import { apiHeaders, complete } from "../http/security-headers";
import { enforceRateLimits, limitsOf, type OperationLimits } from "../limits/limits";
import { describeIssue, jsonPointer } from "../validation/issues";
import { isJsonMediaType } from "../validation/media-type";
import { parseWith, planRequest, validateRequest } from "../validation/request";
import { type MethodHandlers, mountResource } from "./resource";

export type ResponseValidationMode = "off" | "log" | "enforce";

/** The `RESPONSE_VALIDATION` var; anything unrecognised counts as the default, `log`. */
export function responseValidationMode(
  env: { RESPONSE_VALIDATION?: string } | undefined,
): ResponseValidationMode {
  const mode = env?.RESPONSE_VALIDATION;
  return mode === "off" || mode === "enforce" ? mode : "log";
}

const PARAMETER_SEGMENT = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const LITERAL_SEGMENT = /^[A-Za-z0-9\-._~!$&'()+,;=@%]*$/;

/**
 * Checks an OpenAPI path template and turns it into a Hono path (`{id}` → `:id`). A
 * template the platform could route wrongly is refused when the app is built.
 */
export function routePath(id: string, template: string): { path: string; parameters: string[] } {
  const fail = (why: string) =>
    new Error(`operation ${id}: path ${JSON.stringify(template)} ${why}`);
  if (!template.startsWith("/")) throw fail("must start with /");
  if (template === SERVICE_PREFIX || template.startsWith(`${SERVICE_PREFIX}/`)) {
    throw fail(`is inside the platform's reserved prefix ${SERVICE_PREFIX}`);
  }
  const parameters: string[] = [];
  const segments = template
    .split("/")
    .slice(1)
    .map((segment) => {
      const parameter = PARAMETER_SEGMENT.exec(segment)?.[1];
      if (parameter) {
        if (parameters.includes(parameter)) throw fail(`repeats the parameter ${parameter}`);
        parameters.push(parameter);
        return `:${parameter}`;
      }
      if (!LITERAL_SEGMENT.test(segment))
        throw fail("has a segment that is neither literal nor {name}");
      return segment;
    });
  return { path: `/${segments.join("/")}`, parameters };
}

/** Why a result does not match its declaration, for the log; undefined when it does. */
async function responseMismatch(
  declared: ResponseDeclaration | undefined,
  result: AnyResult,
  mediaType: string | undefined,
): Promise<string | undefined> {
  if (!declared) return `status ${result.status} is not declared`;
  if (declared.content) {
    const schema = mediaType === undefined ? undefined : declared.content[mediaType];
    if (!schema)
      return `media type ${String(mediaType)} is not declared for status ${result.status}`;
    const parsed = await parseWith(schema, result.body);
    if (!parsed.success) {
      return `body does not match its schema: ${parsed.error.issues
        .map((issue) => `${jsonPointer(issue.path)} ${describeIssue(issue)}`)
        .join("; ")}`;
    }
  } else if (result.body !== undefined) {
    return `status ${result.status} declares no body`;
  }
  if (declared.headers) {
    const parsed = await parseWith(declared.headers, { ...result.headers });
    if (!parsed.success) return "headers do not match their schema";
  }
  return undefined;
}

/** The platform's headers, which a handler cannot replace; it may set its own CSP. */
const FORCED = new Set(["content-type", ...Object.keys(apiHeaders(""))]);
FORCED.delete("content-security-policy");

function serialise(result: AnyResult, mediaType: string | undefined, requestId: string): Response {
  const headers = apiHeaders(requestId);
  // OWASP REST: an answer is not stored unless the handler says otherwise.
  headers["cache-control"] = "no-store";
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    const key = name.toLowerCase();
    if (!FORCED.has(key) && key !== "__proto__") headers[key] = value;
  }
  if (result.body === undefined)
    return complete(new Response(null, { status: result.status, headers }));
  const type = mediaType ?? "application/json";
  headers["content-type"] = type;
  const text = isJsonMediaType(type) ? JSON.stringify(result.body) : String(result.body);
  return complete(new Response(text, { status: result.status, headers }));
}

/** The caller's address as Cloudflare's edge reports it; requests without one share a count. */
function clientAddress(request: Request): string {
  return request.headers.get("cf-connecting-ip") ?? "unknown";
}

function operationRoute(
  contract: Contract,
  id: string,
  handler: AnyHandler | undefined,
  limits: OperationLimits,
  maxBodyBytes: number,
): Handler<AppEnv> {
  const operation = contract.operations[id] as Operation;
  const security = planSecurity(contract, id, operation);
  const plan = planRequest(operation, limits.maxBodyBytes ?? maxBodyBytes, security?.fields);
  const notImplemented = typedProblem(
    OPERATION_NOT_IMPLEMENTED,
    "This operation is declared and the request is valid for it, but it is not implemented yet.",
    { operationId: id },
  );
  return async function operationRoute(c: Context<AppEnv>) {
    const requestId = c.get("requestId");
    // Secrets and bindings are looked up by the names the contract gives.
    const env = (c.env ?? {}) as unknown as Readonly<Record<string, unknown>>;
    // Before the body is read: rate limits per client address (so guessing credentials is
    // limited too), then credentials, then rate limits per credential.
    if (limits.perClient.length > 0) {
      const key = `client:${clientAddress(c.req.raw)}`;
      const limited = await enforceRateLimits(limits.perClient, key, env, requestId);
      if (limited) return limited;
    }
    if (security) {
      const auth = await authenticate(security, c.req.raw, env, requestId);
      if (!auth.ok) return auth.response;
      if (limits.perCredential.length > 0) {
        const key = `credential:${auth.satisfied.join("+")}`;
        const limited = await enforceRateLimits(limits.perCredential, key, env, requestId);
        if (limited) return limited;
      }
    }
    const validation = await validateRequest(plan, c);
    if (!validation.ok) return validation.response;
    if (!handler) return problemResponse(requestId, notImplemented);

    const result = await handler(validation.input, c);
    const declared = operation.responses[result.status];
    const mediaType = result.mediaType ?? Object.keys(declared?.content ?? {})[0];
    const mode = responseValidationMode(c.env);
    if (mode !== "off") {
      const mismatch = await responseMismatch(declared, result, mediaType);
      if (mismatch !== undefined) {
        const fields = { requestId, operationId: id, status: result.status, mismatch };
        if (mode === "enforce") {
          log("error", "response does not match its declaration", fields);
          return problemResponse(requestId, INTERNAL_ERROR);
        }
        log("warn", "response does not match its declaration", fields);
      }
    }
    return serialise(result, mediaType, requestId);
  };
}

/**
 * Mounts every declared operation. Paths with fewer parameters are mounted first, so a
 * literal path wins over a template that would also match it (OpenAPI 3.1 §4.8.8).
 */
export function mountOperations(
  app: Hono<AppEnv>,
  contract: Contract,
  handlers: Readonly<Record<string, AnyHandler | undefined>>,
  maxBodyBytes: number,
): void {
  for (const id of Object.keys(handlers)) {
    if (!(id in contract.operations))
      throw new Error(`handler ${id}: no operation of that id is declared`);
  }
  const byPath = new Map<
    string,
    { parameters: number; methods: Record<string, Handler<AppEnv>> }
  >();
  for (const [id, operation] of Object.entries(contract.operations)) {
    if (!OPERATION_METHODS.includes(operation.method)) {
      throw new Error(`operation ${id}: method ${String(operation.method)} cannot be declared`);
    }
    const { path, parameters } = routePath(id, operation.path);
    const declaredParams = operation.request?.params !== undefined;
    if (parameters.length > 0 && !declaredParams) {
      throw new Error(
        `operation ${id}: path parameters ${parameters.join(", ")} need a request.params schema`,
      );
    }
    const entry = byPath.get(path) ?? { parameters: parameters.length, methods: {} };
    if (entry.methods[operation.method]) {
      throw new Error(`operation ${id}: ${operation.method} ${operation.path} is declared twice`);
    }
    entry.methods[operation.method] = operationRoute(
      contract,
      id,
      handlers[id],
      limitsOf(contract, id),
      maxBodyBytes,
    );
    byPath.set(path, entry);
  }
  const shapes = new Map<string, string>();
  for (const path of byPath.keys()) {
    const shape = path.replace(/:[^/]+/g, ":");
    const other = shapes.get(shape);
    if (other) throw new Error(`paths ${other} and ${path} differ only in parameter names`);
    shapes.set(shape, path);
  }
  const paths = [...byPath].sort(([, a], [, b]) => a.parameters - b.parameters);
  for (const [path, { methods }] of paths) mountResource(app, path, methods as MethodHandlers);
}
