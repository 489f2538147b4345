/**
 * `npm run test:openapi`: the OpenAPI documents judged by third-party tools, as a client's
 * toolchain would judge them. Run in CI.
 *
 * 1. Spectral (`spectral:oas`) and Redocly CLI (`recommended`) lint the shipped document
 *    and each fixture's: any error fails. Warnings are printed, not judged; the kinds that
 *    remain are explained in src/platform/README.md ("The OpenAPI document"). Each FIXTURE
 *    OpenAPI document in test/fixtures/openapi/ is imported, and the document its contract
 *    serves is linted beside the source: no error, and no kind of warning the source has
 *    not (what the platform adds must not make a client's linter complain).
 * 2. Generated clients (./generated-clients.ts): openapi-typescript + openapi-fetch and
 *    @hey-api/openapi-ts generate a client of the shipped document, the FIXTURE vocabulary's
 *    and each imported FIXTURE document's; each, with a call of every operation, must
 *    type-check strictly with no narrowing by hand.
 * 3. Stoplight Prism, in proxy mode in front of the FIXTURE vocabulary app on `workerd
 *    serve`, validates a set of valid and invalid requests and every answer against the
 *    document the app serves: no answer may violate it, no valid request may be reported,
 *    and each invalid one must be.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import * as z from "zod/mini";
import { createApp, type ServiceApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import type { VersionPlacement } from "../../src/contract-language/contract";
import { XML_CODEC } from "../../src/engine/xml/codec";
import { EMPTY_CONTRACT } from "../fixtures/contracts";
import { FIXTURE_HANDLERS, FIXTURE_OPERATIONS_CONTRACT } from "../fixtures/operations";
import { FIXTURE_SECURITY_CONTRACT, FIXTURE_SECURITY_HANDLERS } from "../fixtures/security";
import { fixtureVersionsContract } from "../fixtures/versions";
import {
  FIXTURE_JWT_VARS,
  FIXTURE_ROTATED_SECRETS,
  FIXTURE_VOCABULARY_CONTRACT,
  FIXTURE_VOCABULARY_HANDLERS,
} from "../fixtures/vocabulary";
import { importCase } from "../support/import-case";
import { SHIPPED_WORKER } from "../support/shipped-worker";
import { generatedClients } from "./generated-clients";
import { buildBundle, freePort, serveWorker } from "./serve";

const run = promisify(execFile);
const OUT = resolve("test/artifacts/openapi");
const engine = { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema } as const;

const APPS: Readonly<Record<string, Pick<ServiceApp, "fetch">>> = {
  // The shipped Worker with its deployment's static assets, where its documents are.
  shipped: SHIPPED_WORKER,

  empty: createApp(EMPTY_CONTRACT),
  operations: createApp(FIXTURE_OPERATIONS_CONTRACT, { ...engine, handlers: FIXTURE_HANDLERS }),
  security: createApp(FIXTURE_SECURITY_CONTRACT, {
    ...engine,
    handlers: FIXTURE_SECURITY_HANDLERS,
  }),
  vocabulary: createApp(FIXTURE_VOCABULARY_CONTRACT, {
    ...engine,
    xml: XML_CODEC,
    handlers: FIXTURE_VOCABULARY_HANDLERS,
  }),
  // Part 9: a deprecated version's document, with its version parameter and variants.
  "versions-v1": versionDocument({ in: "header", name: "Api-Version" }, "v1"),
  "versions-path-v2": versionDocument({ in: "path" }, "v2"),
};

/** The document one version of the FIXTURE versions contract is served with. */
function versionDocument(placement: VersionPlacement, version: string): Pick<ServiceApp, "fetch"> {
  const app = createApp(fixtureVersionsContract(placement), engine);
  return {
    fetch: (request) => {
      const url = new URL(request.url);
      url.searchParams.set("version", version);
      return app.fetch(new Request(url, request));
    },
  };
}

let failed = false;
const verdict = (ok: boolean, text: string) => {
  console.log(`${ok ? "ok  " : "FAIL"}  ${text}`);
  if (!ok) failed = true;
};

async function writeDocuments(): Promise<string[]> {
  mkdirSync(OUT, { recursive: true });
  const files: string[] = [];
  for (const [name, app] of Object.entries(APPS)) {
    const res = await app.fetch(new Request("https://fixture.test/_service/openapi.json"));
    const file = join(OUT, `${name}.json`);
    writeFileSync(file, JSON.stringify(await res.json(), null, 2));
    files.push(file);
  }
  return files;
}

/** Runs a linter; its JSON report, whatever its exit status (it exits 1 when it finds errors). */
async function lint(command: string, args: readonly string[]): Promise<string> {
  try {
    return (await run("npx", [command, ...args], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout } = error as { stdout?: string };
    if (stdout) return stdout;
    throw error;
  }
}

/** A linter's findings of one document: its errors, and the kinds of its warnings. */
interface Lint {
  readonly errors: readonly string[];
  readonly warnings: ReadonlySet<string>;
}

async function spectralLint(file: string): Promise<Lint> {
  const ruleset = join(OUT, ".spectral.yaml");
  writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
  const report = JSON.parse(
    (await lint("spectral", ["lint", file, "--ruleset", ruleset, "--format", "json", "--quiet"])) ||
      "[]",
  ) as { code: string; severity: number; path: string[] }[];
  // Spectral's severities: 0 error, 1 warning, 2 info, 3 hint.
  return {
    errors: report.filter((r) => r.severity === 0).map((e) => `${e.code} at ${e.path.join(".")}`),
    warnings: new Set(report.filter((r) => r.severity === 1).map((r) => r.code)),
  };
}

async function redoclyLint(file: string): Promise<Lint> {
  const report = JSON.parse(
    await lint("redocly", ["lint", file, "--extends", "recommended", "--format", "json"]),
  ) as { problems: { ruleId: string; severity: string; location?: { pointer?: string }[] }[] };
  return {
    errors: report.problems
      .filter((p) => p.severity === "error")
      .map((p) => `${p.ruleId} at ${p.location?.[0]?.pointer ?? "?"}`),
    warnings: new Set(report.problems.filter((p) => p.severity === "warn").map((p) => p.ruleId)),
  };
}

/**
 * Each FIXTURE OpenAPI document, imported (in process, as the importer's tests do), and the
 * document its contract serves linted beside the source by both linters.
 */
async function importedDocuments(): Promise<void> {
  const dir = resolve("test/fixtures/openapi");
  for (const name of readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f))) {
    const source = join(dir, name);
    const text = readFileSync(source, "utf8");
    const imported = await importCase(
      `openapi-tools-${name.replace(/\W/g, "-")}`,
      name.endsWith(".json") ? (JSON.parse(text) as Record<string, unknown>) : { yaml: text },
    );
    const served = join(OUT, `imported-${name}.json`);
    writeFileSync(served, JSON.stringify(await imported.served(), null, 2));
    for (const [linter, read] of [
      ["Spectral spectral:oas", spectralLint],
      ["Redocly recommended", redoclyLint],
    ] as const) {
      const [before, after] = [await read(source), await read(served)];
      const added = [...after.warnings].filter((kind) => !before.warnings.has(kind));
      verdict(
        after.errors.length === 0 && added.length === 0,
        `${linter}, ${name} imported and served: ${after.errors.length} errors${
          after.errors.length ? ` (${after.errors.join("; ")})` : ""
        }; warnings of kinds the source has not: ${added.join(", ") || "none"}`,
      );
    }
  }
}

async function spectral(files: readonly string[]): Promise<void> {
  for (const file of files) {
    const { errors, warnings } = await spectralLint(file);
    verdict(
      errors.length === 0,
      `Spectral spectral:oas, ${file.split("/").pop()}: ${errors.length} errors${
        errors.length ? ` (${errors.join("; ")})` : ""
      }; warnings of kinds ${[...warnings].join(", ") || "none"}`,
    );
  }
}

async function redocly(files: readonly string[]): Promise<void> {
  for (const file of files) {
    const { errors, warnings } = await redoclyLint(file);
    verdict(
      errors.length === 0,
      `Redocly recommended, ${file.split("/").pop()}: ${errors.length} errors${
        errors.length ? ` (${errors.join("; ")})` : ""
      }; warnings of kinds ${[...warnings].join(", ") || "none"}`,
    );
  }
}

interface Probe {
  readonly label: string;
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: BodyInit;
  /** Whether the request itself breaks the document (Prism must then say so). */
  readonly invalid?: true;
  /**
   * The answer is XML. Prism does not read XML: it holds the body, as a string, to the
   * object schema (stoplightio/prism#2050), so its one finding is the body's type, and
   * only that one is let pass. test/service/served-answers.node.test.ts reads each XML answer by
   * the document's own xml objects and holds it to its schema with Ajv.
   */
  readonly xml?: true;
}

/** What Prism says of any XML body held to an object schema (stoplightio/prism#2050). */
const PRISM_READS_XML_AS_TEXT = "Response body must be object";

const KEY = { "x-fixture-rotated-key": FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY };
const JSON_BODY = { "content-type": "application/json" };
const PROBES: readonly Probe[] = [
  { label: "GET a pet as JSON", path: "/fixture-pets/p1", headers: KEY },
  {
    label: "GET a pet as XML",
    path: "/fixture-pets/p1",
    headers: { ...KEY, accept: "application/xml" },
    xml: true,
  },
  {
    label: "GET a pet as text",
    path: "/fixture-pets/p1",
    headers: { ...KEY, accept: "text/plain" },
  },
  {
    label: "GET a pet accepting none of its types (406)",
    path: "/fixture-pets/p1",
    headers: { ...KEY, accept: "image/png" },
  },
  { label: "GET a pet without credentials (401)", path: "/fixture-pets/p1", invalid: true },
  {
    label: "POST a pet",
    method: "POST",
    path: "/fixture-pets",
    headers: { ...KEY, ...JSON_BODY },
    body: '{"name":"Rex"}',
  },
  {
    label: "POST a pet whose name is taken (409, part 7)",
    method: "POST",
    path: "/fixture-pets",
    headers: { ...KEY, ...JSON_BODY },
    body: '{"name":"Taken"}',
  },
  {
    label: "POST an invalid pet (the spec's 400)",
    method: "POST",
    path: "/fixture-pets",
    headers: { ...KEY, ...JSON_BODY },
    body: '{"name":""}',
    invalid: true,
  },
  {
    label: "POST malformed JSON (the spec's 400)",
    method: "POST",
    path: "/fixture-pets",
    headers: { ...KEY, ...JSON_BODY },
    body: "{",
  },
  {
    label: "POST an undeclared media type (415)",
    method: "POST",
    path: "/fixture-pets",
    headers: { ...KEY, "content-type": "text/csv" },
    body: "a",
    invalid: true,
  },
  {
    label: "POST a payment (write-only member masked)",
    method: "POST",
    path: "/fixture-payments",
    headers: JSON_BODY,
    body: '{"amount":5,"cardNumber":"4111111111111111","securityCode":"123"}',
  },
  {
    label: "POST a form",
    method: "POST",
    path: "/fixture-bodies/form",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "name=a&tags=b&tags=c",
  },
  {
    label: "POST text",
    method: "POST",
    path: "/fixture-bodies/text",
    headers: { "content-type": "text/plain" },
    body: "fixture",
  },
  {
    label: "PUT bytes",
    method: "PUT",
    path: "/fixture-bodies/binary",
    headers: { "content-type": "application/octet-stream" },
    body: "abc",
  },
  { label: "DELETE a pet (deprecated)", method: "DELETE", path: "/fixture-pets/p1", headers: KEY },
  {
    label: "OPTIONS on a declared path (204 with Allow)",
    method: "OPTIONS",
    path: "/fixture-pets/p1",
  },
  { label: "GET health", path: "/_service/health" },
  { label: "GET the status report", path: "/_service/interface" },
  { label: "GET a problem type's page", path: "/_service/problems/FixturePetTaken" },
  { label: "GET an undeclared path (the spec's 404)", path: "/fixture-nowhere", invalid: true },
];

type Violation = { location: string[]; severity: string; message: string };

async function prism(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "prism-"));
  const bundle = await buildBundle(
    "fixture-vocabulary",
    resolve("test/tools/fixture-worker.ts"),
    dir,
  );
  const served = await serveWorker({
    bundle,
    vars: { ...FIXTURE_ROTATED_SECRETS, ...FIXTURE_JWT_VARS, RESPONSE_VALIDATION: "enforce" },
  });
  let proxy: ChildProcess | undefined;
  try {
    const document = join(dir, "openapi.json");
    writeFileSync(document, await (await fetch(`${served.url}/_service/openapi.json`)).text());
    const port = await freePort();
    proxy = spawn(
      "npx",
      ["prism", "proxy", document, served.url, "--port", String(port), "--host", "127.0.0.1"],
      { stdio: ["ignore", "ignore", "inherit"], detached: true },
    );
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await (await fetch(`${base}/_service/health`)).arrayBuffer();
        break;
      } catch {
        if (Date.now() > deadline) throw new Error("Prism did not start within 60 s");
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    for (const probe of PROBES) {
      const res = await fetch(`${base}${probe.path}`, {
        method: probe.method ?? "GET",
        headers: probe.headers,
        body: probe.body,
      });
      await res.arrayBuffer();
      const violations = JSON.parse(res.headers.get("sl-violations") ?? "[]") as Violation[];
      const isXml = /[/+]xml\b/.test(res.headers.get("content-type") ?? "");
      const ofAnswer = violations.filter(
        (v) =>
          v.location[0] === "response" &&
          !(probe.xml && isXml && v.message === PRISM_READS_XML_AS_TEXT),
      );
      const ofRequest = violations.filter((v) => v.location[0] !== "response");
      const ok =
        ofAnswer.length === 0 &&
        (!probe.xml || isXml) &&
        (probe.invalid ? ofRequest.length > 0 : ofRequest.length === 0);
      verdict(
        ok,
        `Prism proxy, ${probe.label}: ${res.status}; ${ofAnswer.length} violations of the answer, ${ofRequest.length} of the request${
          violations.length ? ` (${violations.map((v) => v.message).join("; ")})` : ""
        }`,
      );
    }
  } finally {
    if (proxy?.pid) process.kill(-proxy.pid, "SIGTERM");
    await served.stop();
  }
}

const files = await writeDocuments();
await spectral(files);
await redocly(files);
await importedDocuments();
for (const file of [
  join(OUT, "shipped.json"),
  join(OUT, "vocabulary.json"),
  ...readdirSync(OUT)
    .filter((name) => name.startsWith("imported-"))
    .map((name) => join(OUT, name)),
]) {
  const name =
    file
      .split("/")
      .pop()
      ?.replace(/\.json$/, "") ?? "document";
  const document = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  for (const [ok, text] of await generatedClients(name, file, document)) verdict(ok, text);
}
await prism();
process.exitCode = failed ? 1 : 0;
