/**
 * The model holds to the wire: for every FIXTURE contract and for a document the importer
 * takes in, requests of the kinds the hostile, fuzz and conformance suites send (their
 * methods, bodies, media types, Accept headers, credentials and versions, generated here
 * with fast-check) are sent to each operation, and each status it answers with must be one
 * its model lists (a declared answer or a failure) and one the served document lists for
 * it. And every failure a model lists has a test that provokes it, or a reason none can.
 */
import { existsSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toJSONSchema } from "zod";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { type Contract, operationShapes } from "../../../src/contract-language/contract";
import { outlineOperation } from "../../../src/engine/operations/model";
import { XML_CODEC } from "../../../src/engine/xml/codec";
import {
  FIXTURE_ERROR_BODIES_CONTRACT,
  FIXTURE_ERROR_BODIES_HANDLERS,
} from "../../fixtures/error-bodies";
import { FIXTURE_EVENTS_CONTRACT, FIXTURE_EVENTS_HANDLERS } from "../../fixtures/events";
import {
  FIXTURE_INTROSPECTION_CONTRACT,
  FIXTURE_INTROSPECTION_HANDLERS,
} from "../../fixtures/introspection";
import { FIXTURE_HANDLERS, FIXTURE_OPERATIONS_CONTRACT } from "../../fixtures/operations";
import { FIXTURE_STYLES_CONTRACT, FIXTURE_STYLES_HANDLERS } from "../../fixtures/parameter-styles";
import { FIXTURE_SECURITY_CONTRACT, FIXTURE_SECURITY_HANDLERS } from "../../fixtures/security";
import { FIXTURE_STATES_CONTRACT } from "../../fixtures/states";
import { FIXTURE_VERSIONS_CONTRACT, FIXTURE_VERSIONS_HANDLERS } from "../../fixtures/versions";
import {
  FIXTURE_VOCABULARY_CONTRACT,
  FIXTURE_VOCABULARY_HANDLERS,
} from "../../fixtures/vocabulary";
import { type ImportedCase, importCase } from "../../support/import-case";

type Json = Record<string, unknown>;
type App = ReturnType<typeof createApp>;

interface Target {
  readonly name: string;
  readonly contract: Contract;
  readonly app: App;
  readonly implemented: ReadonlySet<string>;
}

const options = {
  engine: BUILD_ENGINE,
  jsonSchema: toJSONSchema,
  xml: XML_CODEC,
};

function target(name: string, contract: Contract, handlers: object = {}): Target {
  const app = createApp(contract as never, { ...options, handlers } as never) as App;
  return { name, contract, app, implemented: new Set(Object.keys(handlers)) };
}

/**
 * Which test provokes each failure a model can list (by status and problem type), or why
 * none can. The test below checks every failure of every model is here, and that each
 * named file exists and names what it provokes.
 */
const PROVOKED: Readonly<Record<string, { file: string; names: string } | { reason: string }>> = {
  "400 malformed-request": { file: "test/engine/request/plan.test.ts", names: "malformed-request" },
  "400 unsupported-version": {
    file: "test/engine/versions/negotiate.test.ts",
    names: "unsupported-version",
  },
  "401 authentication-required": {
    file: "test/engine/authentication/authenticate.test.ts",
    names: "401",
  },
  "403 insufficient-scope": {
    file: "test/engine/authentication/verify-jwt.test.ts",
    names: "insufficient-scope",
  },
  "404 not-in-version": { file: "test/engine/versions/negotiate.test.ts", names: "not-in-version" },
  "406 not-acceptable": {
    file: "test/engine/operations/serialise.test.ts",
    names: "not-acceptable",
  },
  "409 state-conflict": { file: "test/engine/states/transition.test.ts", names: "state-conflict" },
  "410 version-gone": { file: "test/engine/versions/negotiate.test.ts", names: "version-gone" },
  "410 operation-gone": { file: "test/engine/versions/negotiate.test.ts", names: "operation-gone" },
  "413 content-too-large": { file: "test/engine/request/plan.test.ts", names: "content-too-large" },
  "415 unsupported-media-type": {
    file: "test/engine/request/plan.test.ts",
    names: "unsupported-media-type",
  },
  "422 validation-failed": { file: "test/engine/request/plan.test.ts", names: "validation-failed" },
  "429 rate-limit-exceeded": {
    file: "test/engine/limits/enforce.test.ts",
    names: "rate-limit-exceeded",
  },
  "500 problem": {
    reason:
      "A thrown handler error, a missing binding, a closed scheme or a broken answer: provoked by " +
      "test/engine/operations/response-conformance.test.ts and the requests below (no binding is set).",
  },
  "501 operation-not-implemented": {
    file: "test/engine/operations/mount.routes.test.ts",
    names: "501",
  },
  "503 problem": { file: "test/engine/events/emit.test.ts", names: "503" },
};

const keyOf = (failure: { status: number; type?: { slug: string } | undefined }) =>
  `${failure.status} ${failure.type?.slug ?? "problem"}`;

/** Whether `status` is answered by a responses object with these keys (OpenAPI 3.1 §4.8.16.2). */
function listed(keys: Iterable<string>, status: number): boolean {
  const all = new Set(keys);
  return all.has(String(status)) || all.has(`${String(status)[0]}XX`) || all.has("default");
}

/** Every status operation `id`'s models list: its declared answers, error types and failures. */
function modelKeys(t: Target, id: string): string[] {
  const operation = t.contract.operations[id];
  if (!operation) return [];
  return operationShapes(operation).flatMap((shape) => [
    ...Object.keys(shape.responses),
    ...(shape.errors ?? []).map((name) => String(t.contract.errors[name]?.status)),
    ...outlineOperation(t.contract, id, shape, t.implemented.has(id)).failures.map((f) =>
      String(f.status),
    ),
  ]);
}

/** The request parts a hostile, fuzzing or conforming client sends. */
const BODIES = [
  "",
  "{}",
  "{",
  "[]",
  '{"__proto__":{"x":1}}',
  "<a/>",
  "a=1",
  "\u00ff",
  "x".repeat(2048),
];
const TYPES = [
  "application/json",
  "application/json; charset=latin1",
  "text/plain",
  "application/xml",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/jsonx",
];
const ACCEPTS = [
  "*/*",
  "application/json",
  "application/xml",
  "text/html",
  "image/png",
  "application/problem+json",
];
const SEGMENTS = [
  "1",
  "fixture",
  "a%20b",
  "%2e",
  "x".repeat(300),
  "00000000-0000-0000-0000-000000000000",
];

function requestArbitrary(t: Target, id: string) {
  const op = t.contract.operations[id];
  if (!op) throw new Error(id);
  const versioning = t.contract.versioning;
  const versions = [...Object.keys(versioning?.versions ?? {}), "v999"];
  const schemes = Object.values(t.contract.securitySchemes);
  return fc
    .record({
      segments: fc.array(fc.constantFrom(...SEGMENTS), { minLength: 4, maxLength: 4 }),
      version: fc.option(fc.constantFrom(...versions)),
      type: fc.option(fc.constantFrom(...TYPES)),
      body: fc.option(fc.constantFrom(...BODIES)),
      big: fc.boolean(),
      accept: fc.option(fc.constantFrom(...ACCEPTS)),
      credential: fc.option(
        fc.constantFrom("Bearer fixture.not.valid", "Basic Zml4dHVyZTp3cm9uZw=="),
      ),
      keys: fc.boolean(),
      query: fc.option(fc.constantFrom("a=1", "fixture=%00", "page=-1&page=2")),
    })
    .map((r) => {
      let i = 0;
      let path = op.path.replace(/\{[^}]+\}/g, () => r.segments[i++ % 4] ?? "1");
      const headers: Record<string, string> = {};
      const placement = versioning?.placement;
      if (placement && r.version !== null) {
        if (placement.in === "path") path = `/${r.version}${path}`;
        else if (placement.in === "header") headers[placement.name] = r.version;
        else if (placement.in === "query") path = `${path}?${placement.name}=${r.version}`;
        else headers.accept = `application/json; ${placement.parameter}=${r.version}`;
      } else if (placement?.in === "path") path = `/${versioning?.current}${path}`;
      if (r.query !== null) path += `${path.includes("?") ? "&" : "?"}${r.query}`;
      if (r.type !== null) headers["content-type"] = r.type;
      if (r.accept !== null) headers.accept ??= r.accept;
      if (r.credential !== null) headers.authorization = r.credential;
      if (r.keys)
        for (const scheme of schemes)
          if (scheme.type === "apiKey" && scheme.in === "header")
            headers[scheme.name] = "fixture-wrong";
      const body = r.big ? "x".repeat(1_048_577) : (r.body ?? undefined);
      const init: RequestInit = { method: op.method, headers };
      if (body !== undefined && op.method !== "GET") init.body = body;
      return { path, init };
    });
}

/**
 * The platform's own 404 and 405, which no operation gives (RFC 9110 §15.5.5, §15.5.6):
 * `about:blank`, or the part 7 error type that presents them, in JSON or XML.
 */
function routingAnswer(t: Target, text: string): boolean {
  const routing = new Set(["about:blank"]);
  for (const [name, error] of Object.entries(t.contract.errors))
    if (error.presents?.some((kind) => kind === "not-found" || kind === "method-not-allowed"))
      routing.add(error.type ?? `/_service/problems/${name}`);
  const type = /"type":"([^"]*)"/.exec(text)?.[1] ?? /<type>([^<]*)<\/type>/.exec(text)?.[1];
  return type !== undefined && routing.has(type);
}

/** What each operation of a target answered, by status. */
async function observe(t: Target, runs: number): Promise<Map<string, Set<number>>> {
  const seen = new Map<string, Set<number>>();
  const env = { RESPONSE_VALIDATION: "enforce" };
  for (const id of Object.keys(t.contract.operations)) {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(t, id), async ({ path, init }) => {
        const res = await t.app.request(`https://model.test${path}`, init, env);
        const text = await res.text();
        // A path the URL parser or the router sends elsewhere (a `%2e` segment, a segment a
        // template's pattern refuses) is answered by the platform's routing, not the operation.
        if ((res.status === 404 || res.status === 405) && routingAnswer(t, text)) return;
        statuses.add(res.status);
      }),
      { numRuns: runs, seed: 2207 },
    );
    seen.set(id, statuses);
  }
  return seen;
}

const TARGETS: Target[] = [
  target("operations", FIXTURE_OPERATIONS_CONTRACT, FIXTURE_HANDLERS),
  target("operations without handlers", FIXTURE_OPERATIONS_CONTRACT),
  target("security", FIXTURE_SECURITY_CONTRACT, FIXTURE_SECURITY_HANDLERS),
  target("vocabulary", FIXTURE_VOCABULARY_CONTRACT, FIXTURE_VOCABULARY_HANDLERS),
  target("introspection", FIXTURE_INTROSPECTION_CONTRACT, FIXTURE_INTROSPECTION_HANDLERS),
  target("error bodies", FIXTURE_ERROR_BODIES_CONTRACT, FIXTURE_ERROR_BODIES_HANDLERS),
  target("events", FIXTURE_EVENTS_CONTRACT, FIXTURE_EVENTS_HANDLERS),
  target("states", FIXTURE_STATES_CONTRACT),
  target("versions", FIXTURE_VERSIONS_CONTRACT, FIXTURE_VERSIONS_HANDLERS),
  target("parameter styles", FIXTURE_STYLES_CONTRACT, FIXTURE_STYLES_HANDLERS),
];

let imported: ImportedCase | undefined;
beforeAll(async () => {
  imported = await importCase("model-rich", {
    yaml: readFileSync("test/fixtures/openapi/rich-3.1.yaml", "utf8"),
  });
  TARGETS.push({
    name: "imported rich-3.1.yaml",
    contract: imported.contract,
    app: imported.app,
    implemented: new Set(),
  });
}, 120_000);
afterAll(() => undefined);

/** The operation objects of a served document, by operation id. */
async function documented(t: Target): Promise<Map<string, string[]>> {
  const res = await t.app.request("https://model.test/_service/openapi.json");
  const doc = (await res.json()) as { paths: Record<string, Record<string, Json>> };
  const byId = new Map<string, string[]>();
  for (const item of Object.values(doc.paths))
    for (const operation of Object.values(item))
      if (typeof operation.operationId === "string")
        byId.set(operation.operationId, Object.keys((operation.responses as Json) ?? {}));
  return byId;
}

describe("each operation's model, held to the wire", () => {
  it("lists every status an operation answers, and so does the served document", async () => {
    const missing: string[] = [];
    for (const t of TARGETS) {
      const doc = await documented(t);
      const seen = await observe(t, 60);
      for (const [id, statuses] of seen)
        for (const status of statuses) {
          if (!listed(modelKeys(t, id), status))
            missing.push(`${t.name}: ${id} ${status} not in its model`);
          // The document of the current version: an operation outside it is not documented.
          if (doc.has(id) && !listed(doc.get(id) ?? [], status))
            missing.push(`${t.name}: ${id} ${status} not in the served document`);
        }
    }
    expect(missing).toEqual([]);
  }, 600_000);

  it("has, for each failure it lists, a test that provokes it or the reason none can", () => {
    const unlisted = new Set<string>();
    for (const t of TARGETS)
      for (const [id, operation] of Object.entries(t.contract.operations))
        for (const shape of operationShapes(operation))
          for (const failure of outlineOperation(t.contract, id, shape, false).failures)
            if (!(keyOf(failure) in PROVOKED)) unlisted.add(keyOf(failure));
    expect([...unlisted]).toEqual([]);
    for (const [key, entry] of Object.entries(PROVOKED)) {
      if ("reason" in entry) continue;
      expect(existsSync(entry.file), key).toBe(true);
      expect(readFileSync(entry.file, "utf8"), `${entry.file} provokes ${key}`).toContain(
        entry.names,
      );
    }
  });
});
