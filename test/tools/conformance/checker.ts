/**
 * A black-box conformance checker: it calls a running instance over HTTP, reads what the
 * instance says of itself (the status report and the OpenAPI document) and checks that
 * every answer keeps the platform's promises. What it expects of the service is derived
 * from those two documents, never guessed.
 *
 * This module uses only `fetch`, `Request` and `Response`, so it runs in Node (the CLI)
 * and inside workerd (its own tests).
 */

import { keyPairs, pathKeyParts, routedPath } from "../../../src/contract-language/path-key";
import {
  type Answer,
  CORS_OFF,
  type CorsSetting,
  checkAnswer,
  contractText,
  type Probe,
} from "./answers";
import { type Documented, documented, documentedFailures } from "./documented";
import { consistencyChecks, type OpenApi, type Report } from "./documents";
import { type Presented, validRequest } from "./valid-request";

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  /** Why it failed; absent when it passed. */
  readonly detail?: string;
}

/** An operation the checker sent nothing to, or not all it would have, and why. */
export interface Unprobed {
  readonly operation: string;
  readonly reason: string;
}

export interface ConformanceReport {
  readonly baseUrl: string;
  readonly checks: readonly Check[];
  readonly passed: number;
  readonly failed: number;
  /** Never counted as passed: what was not probed, with the reason. */
  readonly unprobed: readonly Unprobed[];
}

export type Fetcher = (request: Request) => Promise<Response>;

export interface ConformanceOptions {
  readonly fetch?: Fetcher;
  /** A working credential per security scheme, by the scheme's name in the document. */
  readonly credentials?: Readonly<Record<string, Presented>>;
  /** Only these operations (by operationId), and none of the platform's own checks. */
  readonly operations?: readonly string[];
  /**
   * `false`: every check but each operation's own probes (its valid request and refusals):
   * for a run beside one that probes the operations one by one (the shipped Worker's tests).
   */
  readonly probeOperations?: boolean;
  /** The rate-limit budget, shared by runs that probe the same instance one after another. */
  readonly budget?: Budget;
  /**
   * The instance's account of itself, read once (`describeInstance`) by runs that probe it
   * operation by operation: each run then neither reads nor indexes the whole document
   * again, which made such runs cost the document's size once per operation.
   */
  readonly described?: Described;
}

/** The status report and the OpenAPI document of an instance, read and indexed once. */
export interface Described {
  readonly report: Report;
  readonly openapi: OpenApi;
  readonly doc: Documented;
  /** Text the contract itself holds: not a leak when an answer repeats it. */
  readonly allowed: readonly string[];
  readonly cors: CorsSetting;
}

/** Reads an instance's two documents and indexes the OpenAPI one; undefined if either cannot be read. */
export async function describeInstance(
  baseUrl: string,
  send: Fetcher = (request) => fetch(request),
): Promise<Described | undefined> {
  const base = baseUrl.replace(/\/+$/, "");
  const read = async (path: string, accept: string) => {
    try {
      const response = await send(new Request(`${base}${path}`, { headers: { accept } }));
      return response.ok ? ((await response.json()) as unknown) : undefined;
    } catch {
      return undefined;
    }
  };
  const report = (await read(`${SERVICE}/interface`, "application/json")) as Report | undefined;
  const openapi = (await read(`${SERVICE}/openapi.json`, "application/json")) as
    | OpenApi
    | undefined;
  if (!report || !openapi) return undefined;
  return {
    report,
    openapi,
    doc: documented(openapi as Record<string, unknown>),
    allowed: contractText(openapi),
    cors: report.cors ?? CORS_OFF,
  };
}

/**
 * What the checker may still send to operations under a rate limit of part 8: half of each
 * limit, so probing never spends a deployment's whole budget (the checker counts every
 * request it sends, whichever key the limit counts by).
 */
export class Budget {
  readonly #remaining = new Map<string, number>();
  readonly #limits: readonly {
    name: string;
    limit: number;
    period: number;
    operations: readonly string[];
  }[];

  constructor(report: Report) {
    this.#limits = (report.limits ?? []).flatMap((limit) =>
      limit.kind === "rate" && typeof limit.limit === "number"
        ? [
            {
              name: limit.name,
              limit: limit.limit,
              period: limit.period ?? 60,
              operations: limit.operations ?? [],
            },
          ]
        : [],
    );
  }

  /** Takes one request from every limit over `operationId`; the reason when one has none left. */
  spend(operationId: string | undefined): string | undefined {
    const over = this.#limits.filter((l) => operationId && l.operations.includes(operationId));
    for (const limit of over) {
      const left = this.#remaining.get(limit.name) ?? Math.max(1, Math.floor(limit.limit / 2));
      if (left <= 0)
        return `its rate limit ${limit.name} allows ${limit.limit} requests per ${limit.period} s; the checker spends at most half`;
    }
    for (const limit of over)
      this.#remaining.set(
        limit.name,
        (this.#remaining.get(limit.name) ?? Math.max(1, Math.floor(limit.limit / 2))) - 1,
      );
    return undefined;
  }
}

const SERVICE = "/_service";
const PROBLEMS = `${SERVICE}/problems/`;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const DECLARABLE = ["GET", "POST", "PUT", "PATCH", "DELETE"];
/** What a Path Item's keys name as an operation (OpenAPI 3.1 §4.8.9), upper-cased. */
const METHODS = new Set([...DECLARABLE, "HEAD", "OPTIONS", "TRACE"]);

type Operation = {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content?: Record<string, { schema?: { type?: unknown } }> };
  responses?: Record<string, unknown>;
};

/** A marker no honest answer contains: an answer that holds it echoed the request. */
function newMarker(): string {
  return `cnf${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

export async function checkConformance(
  baseUrl: string,
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const send: Fetcher = options.fetch ?? ((request) => fetch(request));
  const base = baseUrl.replace(/\/+$/, "");
  const marker = newMarker();
  const checks: Check[] = [];
  const unprobed: Unprobed[] = [];
  let allowed: readonly string[] = [];
  // What the report says of CORS, once it is read; every answer is held to it.
  let cors: CorsSetting = CORS_OFF;
  const record = (name: string, failures: readonly string[]) =>
    checks.push(
      failures.length === 0 ? { name, ok: true } : { name, ok: false, detail: failures.join("; ") },
    );

  async function call(probe: Probe): Promise<Answer | undefined> {
    const headers = new Headers(probe.headers);
    headers.set("x-conformance-probe", marker);
    const unsigned = new Request(`${base}${probe.path}`, {
      method: probe.method,
      headers,
      body: probe.body,
      redirect: "manual",
    });
    const request = probe.sign ? await probe.sign(unsigned) : unsigned;
    try {
      const response = await send(request);
      return { response, text: await response.text() };
    } catch (error) {
      record(probe.label, [`no answer: ${String(error)}`]);
      return undefined;
    }
  }

  /** Sends a probe and records one check: the answer's common promises plus the expectation. */
  async function expectAnswer(probe: Probe): Promise<Answer | undefined> {
    const answer = await call(probe);
    if (answer)
      record(probe.label, [
        ...checkAnswer(probe, answer, marker, allowed, cors),
        ...(probe.documented?.(answer.response, answer.text) ?? []),
      ]);
    return answer;
  }

  if (options.described) {
    // Read, indexed and held to its promises once, by the run that described the instance.
    ({ allowed, cors } = options.described);
    const context = operationContext(options.described, options, {
      expect: expectAnswer,
      call,
      record,
      marker,
      unprobed,
    });
    await operationChecks(context, options.operations && new Set(options.operations));
    return summary(base, checks, unprobed);
  }

  // The instance's own account of itself comes first; everything else is derived from it.
  const selfDescription: Probe[] = [
    {
      label: "GET /_service/interface: 200 JSON status report",
      method: "GET",
      path: `${SERVICE}/interface`,
      headers: { accept: "application/json" },
      expect: { status: 200, mediaType: "application/json" },
    },
    {
      label: "GET /_service/openapi.json: 200 OpenAPI document",
      method: "GET",
      path: `${SERVICE}/openapi.json`,
      expect: { status: 200, mediaType: "application/json" },
    },
  ];
  const [reportAnswer, openapiAnswer] = [
    await call(selfDescription[0] as Probe),
    await call(selfDescription[1] as Probe),
  ];
  const report = parse<Report>(reportAnswer);
  const openapi = parse<OpenApi>(openapiAnswer);
  // Text the contract itself holds (a URL with /src/ in a description) is not a leak, so
  // it is known before any answer, these two included, is held to the promises.
  allowed = openapi ? contractText(openapi) : [];
  cors = report?.cors ?? CORS_OFF;
  selfDescription.forEach((probe, i) => {
    const answer = [reportAnswer, openapiAnswer][i];
    if (answer) record(probe.label, checkAnswer(probe, answer, marker, allowed, cors));
  });
  if (!report || !openapi) {
    record("the status report and the OpenAPI document can be read", [
      "without both documents nothing else can be derived",
    ]);
    return summary(base, checks, unprobed);
  }
  for (const [name, failures] of consistencyChecks(report, openapi)) record(name, failures);
  const described = {
    report,
    openapi,
    doc: documented(openapi as Record<string, unknown>),
    allowed,
    cors,
  };
  const context = operationContext(described, options, {
    expect: expectAnswer,
    call,
    record,
    marker,
    unprobed,
  });
  if (options.operations) {
    await operationChecks(context, new Set(options.operations));
    return summary(base, checks, unprobed);
  }

  await platformChecks(openapi, expectAnswer, marker);
  await corsChecks(cors, expectAnswer, marker);

  const endpoints = report.parts.find((part) => part.name === "endpoints");
  if (endpoints && !endpoints.specified) {
    await notSpecifiedChecks(endpoints.number, expectAnswer, marker);
  } else {
    await operationChecks(context, undefined, options.probeOperations !== false);
    await versionChecks(report, base, send, expectAnswer, marker);
    await retirementChecks(openapi, expectAnswer, marker);
  }
  return summary(base, checks, unprobed);
}

/** What the probes of the operations share. */
/** What probing operations needs: the instance's description, and the run's own means. */
function operationContext(
  { report, openapi, doc, allowed }: Described,
  options: ConformanceOptions,
  run: Pick<OperationContext, "expect" | "call" | "record" | "marker" | "unprobed">,
): OperationContext {
  return {
    ...run,
    report,
    openapi,
    doc,
    allowed,
    credentials: options.credentials ?? {},
    budget: options.budget ?? new Budget(report),
  };
}

interface OperationContext {
  readonly report: Report;
  readonly openapi: OpenApi;
  readonly doc: Documented;
  readonly expect: Expect;
  readonly call: (probe: Probe) => Promise<Answer | undefined>;
  readonly record: (name: string, failures: readonly string[]) => void;
  readonly marker: string;
  readonly credentials: Readonly<Record<string, Presented>>;
  readonly budget: Budget;
  readonly unprobed: Unprobed[];
  readonly allowed: readonly string[];
}

/**
 * Part 9, from the documents alone: each version's own OpenAPI document names an operation
 * to ask with it; a version past its sunset is 410, a deprecated one's answers carry
 * Deprecation (RFC 9745 §2) and Sunset (RFC 8594 §3), a current one's neither, and a version
 * the report does not list is 400 with the supported ones.
 */
async function versionChecks(
  report: Report,
  base: string,
  send: Fetcher,
  expect: Expect,
  marker: string,
): Promise<void> {
  const placement = report.versionPlacement;
  const versions = report.versions ?? [];
  if (!placement || versions.length === 0) return;
  const now = Date.now();
  const stated = (path: string, version: string) => {
    if (placement.in === "query")
      return {
        path: `${path}${path.includes("?") ? "&" : "?"}${placement.name}=${encodeURIComponent(version)}`,
      };
    if (placement.in === "media-type")
      return { path, headers: { accept: `application/json; ${placement.parameter}=${version}` } };
    // A version's document has its paths under it: the first segment is the version.
    if (placement.in === "path")
      return { path: `/${encodeURIComponent(version)}/${path.split("/").slice(2).join("/")}` };
    return { path, headers: { [placement.name]: version } };
  };
  /** A path and method of an operation the version has, from its own document. */
  const operationOf = async (version: string) => {
    const res = await send(
      new Request(`${base}${SERVICE}/openapi.json?version=${encodeURIComponent(version)}`),
    );
    if (!res.ok) return undefined;
    const doc = (await res.json()) as OpenApi;
    for (const [template, item] of Object.entries(doc.paths ?? {})) {
      if (template.startsWith(SERVICE)) continue;
      const method = Object.keys(item).find((m) => m !== "options");
      if (method) return { path: fill(template, marker), method: method.toUpperCase(), template };
    }
    return undefined;
  };
  const supported = versions
    .filter((v) => !(v.sunset && Date.parse(v.sunset) <= now))
    .map((v) => v.version);
  for (const v of versions) {
    const gone = v.sunset !== undefined && Date.parse(v.sunset) <= now;
    const target = gone
      ? await operationOf(versions.find((x) => x.current)?.version ?? v.version)
      : await operationOf(v.version);
    if (!target) continue;
    const probe = stated(target.path, v.version);
    if (gone) {
      await expect({
        label: `version ${v.version}, past its sunset: 410 problem`,
        method: target.method,
        ...probe,
        expect: { status: 410, members: { version: v.version } },
      });
      continue;
    }
    await expect({
      label: `${target.method} ${target.template} as version ${v.version}: ${v.deprecated ? "Deprecation and Sunset headers" : "no Deprecation header"}`,
      method: target.method,
      ...probe,
      expect: {
        status: 0,
        notStatus: [400, 404, 410],
        headers: {
          deprecation: v.deprecated ? `@${Math.floor(Date.parse(v.deprecated) / 1000)}` : null,
          sunset: v.deprecated && v.sunset ? new Date(Date.parse(v.sunset)).toUTCString() : null,
        },
      },
    });
  }
  const current = versions.find((v) => v.current);
  const target = current && (await operationOf(current.version));
  if (target)
    await expect({
      label: "a version the report does not list: 400 problem with the supported versions",
      method: target.method,
      ...stated(target.path, `${marker}-version`),
      expect: { status: 400, members: { supportedVersions: supported } },
    });
}

/**
 * An operation deprecated on its own, from the document alone: past the sunset its
 * `x-deprecation` gives, 410; before it, every answer carries the Deprecation (RFC 9745 §2)
 * and Sunset (RFC 8594 §3) values its responses document.
 */
async function retirementChecks(openapi: OpenApi, expect: Expect, marker: string): Promise<void> {
  const now = Date.now();
  for (const [template, item] of Object.entries(openapi.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, RetiringOperation>)) {
      const retirement = op["x-deprecation"];
      if (!retirement?.deprecated) continue;
      // The version parameter the document says to send, where it names one value.
      const stated = (op.parameters ?? []).filter(
        (p) =>
          p.required && (p.in === "header" || p.in === "query") && p.schema?.enum?.length === 1,
      );
      const query = stated
        .filter((p) => p.in === "query")
        .map(
          (p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.schema?.enum?.[0]))}`,
        );
      const probe = {
        method: method.toUpperCase(),
        path: `${fill(template, marker)}${query.length ? `?${query.join("&")}` : ""}`,
        headers: Object.fromEntries(
          stated.filter((p) => p.in === "header").map((p) => [p.name, String(p.schema?.enum?.[0])]),
        ),
      };
      const label = `${probe.method} ${template}, deprecated on its own`;
      if (retirement.sunset && Date.parse(retirement.sunset) <= now) {
        await expect({
          ...probe,
          label: `${label}, past its sunset: 410 problem`,
          expect: { status: 410, members: { operationId: op.operationId } },
        });
        continue;
      }
      const documented = Object.values(op.responses ?? {}).find(
        (r) => r.headers?.Deprecation,
      )?.headers;
      await expect({
        ...probe,
        label: `${label}: Deprecation and Sunset headers as documented`,
        expect: {
          status: 0,
          notStatus: [404, 410],
          headers: {
            deprecation: documented?.Deprecation?.example ?? "",
            sunset: documented?.Sunset?.example ?? null,
          },
        },
      });
    }
  }
}

interface RetiringOperation {
  readonly operationId?: string;
  readonly "x-deprecation"?: { readonly deprecated?: string; readonly sunset?: string };
  readonly parameters?: readonly {
    readonly name: string;
    readonly in: string;
    readonly required?: boolean;
    readonly schema?: { readonly enum?: readonly unknown[] };
  }[];
  readonly responses?: Record<
    string,
    { readonly headers?: Record<string, { readonly example?: string } | undefined> }
  >;
}

function parse<T>(answer: Answer | undefined): T | undefined {
  if (answer?.response.status !== 200) return undefined;
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    return undefined;
  }
}

function summary(
  baseUrl: string,
  checks: readonly Check[],
  unprobed: readonly Unprobed[],
): ConformanceReport {
  const failed = checks.filter((check) => !check.ok).length;
  return { baseUrl, checks, passed: checks.length - failed, failed, unprobed };
}

type Expect = (probe: Probe) => Promise<Answer | undefined>;

/** The operational endpoints: health, HEAD, 405 + Allow, OPTIONS, 404, and the HTML pages. */
async function platformChecks(openapi: OpenApi, expect: Expect, marker: string): Promise<void> {
  const health = `${SERVICE}/health`;
  await expect({
    label: "GET /_service/health: 200, no-store",
    method: "GET",
    path: health,
    expect: { status: 200, mediaType: "application/health+json", noStore: true },
  });
  await expect({
    label: "HEAD /_service/health: 200 with an empty body (RFC 9110 §9.3.2)",
    method: "HEAD",
    path: health,
    expect: { status: 200 },
  });
  const declared = Object.keys(openapi.paths?.[health] ?? {}).map((m) => m.toUpperCase());
  await expect({
    label: "DELETE /_service/health: 405 problem with Allow (RFC 9110 §15.5.6)",
    method: "DELETE",
    path: health,
    expect: { status: 405, allow: declared },
  });
  await expect({
    label: "OPTIONS /_service/health: 204 with Allow, not stored (RFC 9110 §9.3.7)",
    method: "OPTIONS",
    path: health,
    expect: { status: 204, allow: declared, headers: { "cache-control": "no-store" } },
  });
  await expect({
    label: "GET an unknown path under /_service: 404 problem",
    method: "GET",
    path: `${SERVICE}/${marker}?q=${marker}`,
    expect: { status: 404 },
  });
  await expect({
    label: "GET /_service/interface as HTML: 200 page under a CSP",
    method: "GET",
    path: `${SERVICE}/interface`,
    headers: { accept: "text/html" },
    expect: { status: 200, mediaType: "text/html", html: true },
  });
  await expect({
    label: "GET /_service/reference: 200 page under a CSP (its one script allowed by hash)",
    method: "GET",
    path: `${SERVICE}/reference`,
    expect: { status: 200, mediaType: "text/html", html: true },
  });
  // The path's `type` parameter (the first is the request id every operation takes).
  const types =
    openapi.paths?.[`${PROBLEMS}{type}`]?.get?.parameters?.find((p) => p.name === "type")?.schema
      ?.enum ?? [];
  for (const type of types) {
    await expect({
      label: `GET ${PROBLEMS}${type}: 200 page documenting the problem type (RFC 9457 §3.1.1)`,
      method: "GET",
      path: `${PROBLEMS}${type}`,
      expect: { status: 200, mediaType: "text/html", html: true },
    });
  }
}

/**
 * CORS (the Fetch Standard's CORS protocol) as the report says the deployment sets it.
 * Off: a call and a preflight from another origin get no CORS header at all. On: an
 * allowed origin (the first listed, or any for "*") is granted on an answer, a problem and
 * a preflight of health, with the credentials and max age the report gives; a method the
 * path does not declare gets no grant, nor does an origin the list leaves out.
 */
async function corsChecks(setting: CorsSetting, expect: Expect, marker: string): Promise<void> {
  const health = `${SERVICE}/health`;
  const stranger = `https://${marker}.invalid`;
  const preflight = (origin: string, method: string, headers?: string) => ({
    origin,
    "access-control-request-method": method,
    ...(headers === undefined ? {} : { "access-control-request-headers": headers }),
  });
  const none = { kind: "none" } as const;
  if (!setting.enabled) {
    await expect({
      label: "GET /_service/health from another origin, CORS off: no CORS header",
      method: "GET",
      path: health,
      headers: { origin: stranger },
      expect: { status: 200, cors: none },
    });
    await expect({
      label: "a preflight of /_service/health, CORS off: 204 with no grant",
      method: "OPTIONS",
      path: health,
      headers: preflight(stranger, "GET", "x-request-id"),
      expect: { status: 204, cors: none, headers: { "cache-control": "no-store" } },
    });
    return;
  }
  const any = setting.origins.includes("*");
  const origin = any ? stranger : (setting.origins[0] ?? stranger);
  const grant = { allowOrigin: any ? "*" : origin, credentials: setting.credentials === true };
  await expect({
    label: `GET /_service/health from ${any ? "any origin" : origin}: the CORS grant`,
    method: "GET",
    path: health,
    headers: { origin },
    expect: { status: 200, cors: { kind: "actual", ...grant } },
  });
  await expect({
    label: "a 404 problem from an allowed origin: the CORS grant too",
    method: "GET",
    path: `${SERVICE}/${marker}`,
    headers: { origin },
    expect: { status: 404, cors: { kind: "actual", ...grant } },
  });
  await expect({
    label: "a preflight of GET /_service/health with X-Request-Id: 204 with the grant",
    method: "OPTIONS",
    path: health,
    headers: preflight(origin, "GET", "x-request-id"),
    expect: {
      status: 204,
      headers: { "cache-control": "no-store" },
      cors: {
        kind: "preflight",
        ...grant,
        method: "GET",
        headers: ["x-request-id"],
        maxAge: setting.maxAgeSeconds ?? 0,
      },
    },
  });
  await expect({
    label: "a preflight of DELETE /_service/health, which it does not declare: no grant",
    method: "OPTIONS",
    path: health,
    headers: preflight(origin, "DELETE"),
    expect: { status: 204, cors: none },
  });
  if (!any)
    await expect({
      label: "GET /_service/health from an origin the setting does not list: no grant",
      method: "GET",
      path: health,
      headers: { origin: stranger },
      expect: { status: 200, cors: none },
    });
}

/** Part 4 declares nothing: every method on every path outside /_service is a 501 problem. */
async function notSpecifiedChecks(part: number, expect: Expect, marker: string): Promise<void> {
  const problem = {
    status: 501,
    type: `${PROBLEMS}interface-not-specified`,
    members: { missingPart: { number: part, name: "endpoints" } },
  };
  const paths = ["/", `/${marker}`, `/${marker}/nested/${marker}?q=${marker}`];
  for (const [i, method] of [
    "GET",
    "HEAD",
    "POST",
    "PUT",
    "PATCH",
    "DELETE",
    "OPTIONS",
  ].entries()) {
    const path = paths[i % paths.length] ?? "/";
    await expect({
      label: `${method} ${path.replaceAll(marker, "<marker>")}: 501 interface-not-specified, no-store`,
      method,
      path,
      expect: problem,
    });
  }
  await expect({
    label: "POST with a JSON body: 501, the body is neither read nor echoed",
    method: "POST",
    path: `/${marker}`,
    headers: { "content-type": "application/json", "x-echo-check": marker },
    body: JSON.stringify({ marker }),
    expect: problem,
  });
}

/** The schemes an operation's requirements name. */
function schemesOf(operation: Operation): string[] {
  return [
    ...new Set(
      (operation.security ?? []).flatMap((requirement) =>
        typeof requirement === "object" && requirement !== null ? Object.keys(requirement) : [],
      ),
    ),
  ];
}

/**
 * A credential of `scheme` no deployment holds (it carries the marker), where the document
 * says how it is sent: an API key in its header, query or cookie, or an Authorization value.
 */
function wrongCredential(
  openapi: OpenApi,
  scheme: string,
  marker: string,
): { headers: Record<string, string>; query?: string } | undefined {
  const declared = openapi.components?.securitySchemes?.[scheme] as
    | { type?: string; in?: string; name?: string; scheme?: string }
    | undefined;
  const value = `${marker}wrong`;
  if (declared?.type === "apiKey" && declared.name) {
    if (declared.in === "header") return { headers: { [declared.name]: value } };
    if (declared.in === "query")
      return { headers: {}, query: `${encodeURIComponent(declared.name)}=${value}` };
    if (declared.in === "cookie") return { headers: { cookie: `${declared.name}=${value}` } };
    return undefined;
  }
  if (declared?.type === "http" && declared.scheme?.toLowerCase() === "basic")
    return { headers: { authorization: `Basic ${btoa(`${value}:${value}`)}` } };
  if (declared?.type !== undefined) return { headers: { authorization: `Bearer ${value}` } };
  return undefined;
}

/**
 * A request path for a Paths key: its path with every parameter filled, and the fixed
 * values that choose its operation among others on that path: its query's, and its
 * fragment's where that is pairs (`/#Action=X`, which the platform reads from the query).
 */
function fill(template: string, marker: string): string {
  const { path, query, fragment } = pathKeyParts(template);
  const pairs = [query, fragment].flatMap((text) =>
    text === undefined ? [] : Object.entries(keyPairs(text)?.fixed ?? {}),
  );
  const search = pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`);
  return `${path.replace(/\{[^}]+\}/g, marker.slice(0, 8))}${search.length ? `?${search.join("&")}` : ""}`;
}

/**
 * The status and problem type a platform failure is answered with: the platform's own, or
 * those of the error type the report says presents it (part 7's error model).
 */
function failureAnswer(
  report: Report,
  failure: string,
  status: number,
  operationId?: string,
): { readonly status: number; readonly type: string; readonly ownBody?: string } {
  const model = report.errorModel ?? [];
  // An operation's own presentation first, then the error model's for every operation.
  const presented =
    model.find(
      (p) =>
        p.failure === failure && operationId !== undefined && p.operations?.includes(operationId),
    ) ?? model.find((p) => p.failure === failure && p.operations === undefined);
  if (!presented) return { status, type: `${PROBLEMS}${failure}` };
  return {
    status: presented.status,
    type: presented.type,
    ...(presented.mediaType ? { ownBody: presented.mediaType } : {}),
  };
}

/** `application/json` or a `+json` type (RFC 6839 §3.1). */
const isJson = (mediaType: string) => /^application\/(?:[^;]+\+)?json$/i.test(mediaType);

/** Whether a schema of the document only accepts objects (through `$ref`s and `allOf`). */
function objectSchema(openapi: OpenApi, schema: unknown, depth = 0): boolean {
  if (schema === null || typeof schema !== "object" || depth > 16) return false;
  const s = schema as { type?: unknown; $ref?: unknown; allOf?: unknown[] };
  if (s.type === "object") return true;
  if (typeof s.$ref === "string" && s.$ref.startsWith("#/components/schemas/")) {
    const name = s.$ref.slice("#/components/schemas/".length);
    return objectSchema(openapi, openapi.components?.schemas?.[name], depth + 1);
  }
  return (s.allOf ?? []).some((part) => objectSchema(openapi, part, depth + 1));
}

function maxBodyBytes(report: Report, operationId: string | undefined): number | undefined {
  const own = report.limits?.find(
    (limit) =>
      limit.kind === "body-size" &&
      operationId !== undefined &&
      limit.operations?.includes(operationId),
  );
  if (own?.maxBytes !== undefined) return own.maxBytes;
  return report.platformDefaults?.find((d) => d.name === "maxRequestBodyBytes")?.value;
}

/**
 * Part 4 declares operations: a valid request to each (its answer held to the document),
 * then 404, 405 + Allow, 401, 415, 413, 400 and 422 as documented. `only`: just these
 * operations' own probes.
 */
async function operationChecks(
  context: OperationContext,
  only?: ReadonlySet<string>,
  probe = true,
): Promise<void> {
  const { openapi, expect, marker } = context;
  const paths = Object.entries(openapi.paths ?? {}).filter(([path]) => !path.startsWith(SERVICE));
  // As part 7's error model answers a failure no operation documents (a path none has, a
  // method a path lacks), where it does (GitHub's 405 in its own JSON); else RFC 9110's.
  const modelled = (failure: string, status: number) =>
    context.report.errorModel?.some((p) => p.failure === failure && p.operations === undefined)
      ? failureAnswer(context.report, failure, status)
      : { status };
  if (!only) {
    const segments = new Set(paths.map(([path]) => path.split("/").length));
    const depth = [7, 9, 11].find((n) => !segments.has(n)) ?? 13;
    await expect({
      label: "GET a path no operation declares: 404 problem",
      method: "GET",
      path: `/${Array.from({ length: depth - 1 }, () => marker).join("/")}`,
      expect: modelled("not-found", 404),
    });
  }

  for (const [template, item] of paths) {
    const operations = (Object.entries(item) as [string, Operation][]).filter(
      ([method, operation]) =>
        method !== "options" && (!only || only.has(operation.operationId ?? "")),
    );
    // A run of some operations only (one test each, of a contract of any size) looks at
    // their paths alone: each path's Allow below reads every other path.
    if (only && operations.length === 0) continue;
    const path = fill(template, marker);
    if (!only) await methodNotAllowed(template, path, item, paths, expect, modelled);
    if (!probe) continue;
    for (const [method, operation] of operations)
      await operationProbes(context, template, path, method.toUpperCase(), operation);
  }
}

/**
 * A method the path does not declare: 405 with Allow (RFC 9110 §15.5.6). A method this path
 * lacks that a path covering all of its URLs declares is served there (`DELETE /things/{id}`
 * at `/things/mine`), as Prism routes it: Allow names it too.
 */
async function methodNotAllowed(
  template: string,
  path: string,
  item: Record<string, unknown>,
  paths: readonly (readonly [string, Record<string, unknown>])[],
  expect: Expect,
  modelled: (failure: string, status: number) => { status: number },
): Promise<void> {
  // Every key of one routed path (`/?Action=A`, `/?Action=B`) is one resource's methods.
  const routed = routedPath(template);
  const declared = [
    ...new Set(
      paths
        .filter(([key]) => routedPath(key) === routed)
        .flatMap(([, other]) => Object.keys(other).map((m) => m.toUpperCase())),
    ),
  ];
  // A concrete path answers its own methods only (OpenAPI 3.1 §4.8.8), never a sibling's.
  const allowed = declared;
  const other = DECLARABLE.find(
    (m) => !allowed.includes(m) && !(m === "GET" && allowed.includes("HEAD")),
  );
  if (!other) return;
  await expect({
    label: `${other} ${template}: 405 problem with Allow`,
    method: other,
    path,
    expect: { ...modelled("method-not-allowed", 405), allow: allowed },
  });
}

/** The problem types of the platform's refusals of a request as invalid (as part 7 presents them). */
function refusalTypes(report: Report): Map<string, string> {
  const kinds = [
    ["unsupported-media-type", 415],
    ["content-too-large", 413],
    ["malformed-request", 400],
    ["validation-failed", 422],
    ["not-acceptable", 406],
  ] as const;
  return new Map(kinds.map(([kind, status]) => [failureAnswer(report, kind, status).type, kind]));
}

/**
 * A request the document says is valid, sent first: its answer must be documented for the
 * operation (status, media type, required headers, body schema), and never a refusal of
 * the request as invalid, nor of the credentials it was given, nor a 5xx other than the
 * documented 501 of an operation not implemented yet.
 */
async function validProbe(
  context: OperationContext,
  template: string,
  method: string,
  operation: Operation,
  send: Expect,
): Promise<void> {
  const name = `${method} ${template}`;
  const built = validRequest(
    context.openapi as Record<string, unknown>,
    template,
    method,
    context.credentials,
  );
  if (!built.ok) {
    context.unprobed.push({ operation: name, reason: `no valid request: ${built.reason}` });
    return;
  }
  const label = `${name}: a valid request gets an answer the document documents`;
  const probe: Probe = {
    label,
    method,
    path: built.request.path,
    headers: built.request.headers,
    ...(built.request.body === undefined ? {} : { body: built.request.body }),
    ...(built.request.sign ? { sign: built.request.sign } : {}),
    expect: { status: 0, notStatus: [], documentedOnly: true },
  };
  const answer = await send(probe);
  if (!answer) return;
  // One check: the promises every answer keeps, and what the document says of this one.
  const failures = [
    ...checkAnswer(probe, answer, context.marker, context.allowed),
    ...documentedFailures(context.doc, template, method, answer.response, answer.text),
  ];
  const { status } = answer.response;
  let type: unknown;
  try {
    type = status >= 400 ? (JSON.parse(answer.text) as { type?: unknown }).type : undefined;
  } catch {}
  const refusal = typeof type === "string" ? refusalTypes(context.report).get(type) : undefined;
  if (refusal)
    failures.push(
      `the valid request was refused as ${refusal} (${status}): ${answer.text.slice(0, 300)}`,
    );
  if (status === 401 || status === 403)
    failures.push(`the credentials the checker was given were refused (${status})`);
  const notImplemented = type === `${PROBLEMS}operation-not-implemented` && status === 501;
  if (status >= 500 && !notImplemented) failures.push(`status ${status}`);
  context.record(`${label} (${status})`, failures);
  void operation;
}

async function operationProbes(
  context: OperationContext,
  template: string,
  path: string,
  method: string,
  operation: Operation,
): Promise<void> {
  const { report, openapi, marker } = context;
  const name = `${method} ${template}`;
  // Every request to an operation under a rate limit is taken from its budget first.
  let spent: string | undefined;
  const budgeted =
    (send: (probe: Probe) => Promise<Answer | undefined>): Expect =>
    async (probe) => {
      const over = context.budget.spend(operation.operationId);
      if (over) {
        spent ??= over;
        return undefined;
      }
      return send(probe);
    };
  const expect = budgeted(context.expect);
  // The valid request is recorded once, by validProbe itself.
  await validProbe(context, template, method, operation, budgeted(context.call));
  // Each refusal is held to what the document shows for it, as the valid answer is: its
  // status, its media type (the platform's problem beside an error type's own body at the
  // same status) and its body (Jira's `{ errorMessages, errors }` must be the one it documents).
  const documentedToo: Expect = (probe) =>
    expect({
      ...probe,
      documented: (response, text) =>
        documentedFailures(context.doc, template, method, response, text),
    });
  await errorProbes(report, openapi, name, path, method, operation, documentedToo, marker);
  if (spent)
    context.unprobed.push({ operation: name, reason: `not every probe was sent: ${spent}` });
}

async function errorProbes(
  report: Report,
  openapi: OpenApi,
  name: string,
  path: string,
  method: string,
  operation: Operation,
  expect: Expect,
  marker: string,
): Promise<void> {
  const responses = operation.responses ?? {};
  const answer = (failure: string, status: number) =>
    failureAnswer(report, failure, status, operation.operationId);
  const unauthenticated = answer("authentication-required", 401);
  const unsupported = answer("unsupported-media-type", 415);
  const malformed = answer("malformed-request", 400);
  const tooLarge = answer("content-too-large", 413);
  const invalid = answer("validation-failed", 422);
  // An empty requirement makes credentials optional: a request without any is let in.
  const required =
    (operation.security?.length ?? 0) > 0 &&
    !operation.security?.some(
      (r) => typeof r === "object" && r !== null && Object.keys(r).length === 0,
    );
  if (responses[unauthenticated.status] && required) {
    const body = BODY_METHODS.has(method)
      ? { headers: { "content-type": "text/plain" }, body: marker }
      : {};
    await expect({
      label: `${name} without credentials: ${unauthenticated.status} problem with WWW-Authenticate (RFC 9110 §11.6.1)`,
      method,
      path,
      ...body,
      expect: { ...unauthenticated, wwwAuthenticate: true },
    });
    // A wrong credential of each scheme on its own: refused as unauthenticated, never a
    // 500 (a deployment that lacks the scheme's secret or var answers so when its way in
    // is the one tried).
    for (const scheme of schemesOf(operation)) {
      const wrong = wrongCredential(openapi, scheme, marker);
      if (!wrong) continue;
      const sent = { ...body.headers, ...wrong.headers };
      await expect({
        label: `${name} with a wrong credential of ${scheme}: ${unauthenticated.status} problem`,
        method,
        path: wrong.query ? `${path}${path.includes("?") ? "&" : "?"}${wrong.query}` : path,
        headers: sent,
        ...(body.body === undefined ? {} : { body: body.body }),
        expect: { ...unauthenticated, wwwAuthenticate: true },
      });
    }
    return;
  }
  const content = operation.requestBody?.content;
  if (!content) {
    if (BODY_METHODS.has(method) && responses[unsupported.status]) {
      await expect({
        label: `${name} with a body it does not take: ${unsupported.status} problem`,
        method,
        path,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ marker }),
        expect: unsupported,
      });
    }
    return;
  }
  const [mediaType, declared] = Object.entries(content)[0] ?? [];
  if (!mediaType) return;
  const types = Object.keys(content).map((t) => t.toLowerCase());
  const covered = (type: string) =>
    types.some(
      (t) => t === type || t === "*/*" || (t.endsWith("/*") && type.startsWith(t.slice(0, -1))),
    );
  const undeclared = ["text/plain", "application/x-conformance-probe"].find((t) => !covered(t));
  if (undeclared)
    await expect({
      label: `${name} with an undeclared media type: ${unsupported.status} problem`,
      method,
      path,
      headers: { "content-type": undeclared },
      body: marker,
      expect: unsupported,
    });
  if (isJson(mediaType))
    await expect({
      label: `${name} with malformed JSON: ${malformed.status} problem`,
      method,
      path,
      headers: { "content-type": mediaType },
      body: `{"${marker}":`,
      expect: malformed,
    });
  const cap = maxBodyBytes(report, operation.operationId);
  if (cap !== undefined && responses[tooLarge.status]) {
    await expect({
      label: `${name} with a body of ${cap + 1} bytes: ${tooLarge.status} problem`,
      method,
      path,
      headers: { "content-type": mediaType },
      body: `"${"x".repeat(cap - 1)}"`,
      expect: tooLarge,
    });
  }
  if (isJson(mediaType) && objectSchema(openapi, declared?.schema) && responses[invalid.status]) {
    await expect({
      label: `${name} with a JSON array where an object is declared: ${invalid.status} problem`,
      method,
      path,
      headers: { "content-type": mediaType },
      body: JSON.stringify([marker]),
      expect: { ...invalid, errors: true },
    });
  }
}
