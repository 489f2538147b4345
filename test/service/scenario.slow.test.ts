/**
 * Every answer of the sandbox valid against the served document, in every mode (issue 41
 * §4): the scenario walk (test/tools/scenario.ts: create → read → list → replace → update
 * → transition → delete → 404 over each placed resource) on every FIXTURE contract the
 * sandbox places operations of, on the FIXTURE documents imported, and on real documents
 * read where they are: `SCENARIO_DOCUMENTS` names them, commas between (never copied into
 * the repository), e.g.
 * `SCENARIO_DOCUMENTS=<a.yaml>,<b.json>`.
 * Each app is walked in each `RESPONSE_VALIDATION` mode, each answer validated with Ajv.
 *
 * Node, not workerd: real documents are imported in process (test/support/import-case.ts
 * writes and loads their contract files), and Ajv compiles with `new Function`, which
 * workerd forbids. The sandbox's records are then kept in memory, behind the same
 * SandboxRecords interface the Durable Object offers (test/support/memory-sandbox.ts);
 * the workerd walk (walk.sandbox.test.ts) runs the Durable Object itself.
 */
import { timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type Contract, jwtOf } from "../../src/contract-language/contract";
import { UNHANDLED_VAR } from "../../src/engine/operations/unhandled-setting";
import { needsSandbox, placeOperations } from "../../src/mocks/sandbox/place";
import { SANDBOX_BINDING } from "../../src/mocks/sandbox/records";
import { FIXTURE_EVENTS_CONTRACT } from "../fixtures/events";
import { FIXTURE_EXAMPLES_CONTRACT } from "../fixtures/examples";
import { FIXTURE_OPERATIONS_CONTRACT } from "../fixtures/operations";
import {
  FIXTURE_SANDBOX_KEYED_CONTRACT,
  FIXTURE_SANDBOX_PETS_CONTRACT,
  FIXTURE_SANDBOX_SHELVES_CONTRACT,
} from "../fixtures/sandbox";
import { FIXTURE_STATES_CONTRACT } from "../fixtures/states";
import { FIXTURE_VOCABULARY_CONTRACT } from "../fixtures/vocabulary";
import { builtApp } from "../support/built-app";
import { requiredSecrets } from "../support/deployment";
import { importCase } from "../support/import-case";
import { accessToken, keySetOf, newIssuer } from "../support/issuer";
import { memorySandbox } from "../support/memory-sandbox";
import { ajvCheck } from "../tools/ajv-check";
import { presented, secretCredentials } from "../tools/conformance/credentials";
import { askedScopes, jwtSchemes } from "../tools/dev-credentials";
import { type ScenarioReport, scenario } from "../tools/scenario";

type Json = Record<string, unknown>;

// Workers' constant-time comparison of secrets' digests (src/engine/authentication/compare.ts),
// which Node's Web Crypto lacks: Node's own, as served-answers.node.test.ts gives it.
const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual?: unknown };
subtle.timingSafeEqual ??= (a: ArrayBuffer, b: ArrayBuffer) =>
  timingSafeEqual(new Uint8Array(a), new Uint8Array(b));

/** The response validation modes a deployment can set (src/engine/zod/response-mode.ts). */
const MODES = ["off", "log", "enforce"] as const;

/**
 * The FIXTURE contracts the sandbox places operations of, served with no handler (every
 * operation the sandbox's); the test refuses one listed here that places none.
 */
const FIXTURE_CONTRACTS: readonly [string, Contract][] = [
  ["FIXTURE sandbox pets", FIXTURE_SANDBOX_PETS_CONTRACT],
  ["FIXTURE sandbox shelves", FIXTURE_SANDBOX_SHELVES_CONTRACT],
  ["FIXTURE sandbox keyed notes", FIXTURE_SANDBOX_KEYED_CONTRACT],
  ["FIXTURE operations", FIXTURE_OPERATIONS_CONTRACT],
  ["FIXTURE examples", FIXTURE_EXAMPLES_CONTRACT],
  ["FIXTURE events", FIXTURE_EVENTS_CONTRACT],
  ["FIXTURE states", FIXTURE_STATES_CONTRACT],
  ["FIXTURE vocabulary", FIXTURE_VOCABULARY_CONTRACT],
];

/**
 * The FIXTURE documents the sandbox places operations of once imported, as a new user
 * imports theirs (test/fixtures/error-conventions-3.1.yaml places none).
 */
const FIXTURE_DOCUMENTS = ["test/fixtures/openapi/rich-3.1.yaml"];

const REAL_DOCUMENTS = (process.env.SCENARIO_DOCUMENTS ?? "").split(",").filter((f) => f !== "");

/**
 * What a deployment of `contract` sets for part 5, made for this run: a value for each
 * secret it names (basic ones `user:password`), and for each JWT scheme a key set of an
 * issuer made here, given inline; with a working credential of each such scheme (a token
 * of that issuer granting every scope an operation asks of it).
 */
async function deploymentOf(contract: Contract) {
  const settings: Record<string, string> = Object.fromEntries(
    requiredSecrets(contract).map(({ name, meaning }) => [
      name,
      meaning.startsWith("the user-id:password")
        ? `scenario-user:${crypto.randomUUID()}`
        : `scenario-${crypto.randomUUID()}`,
    ]),
  );
  const credentials = secretCredentials(contract, settings);
  const issuer = await newIssuer("scenario-issuer");
  for (const [name, scheme] of jwtSchemes(contract)) {
    const jwt = jwtOf(scheme);
    if (!jwt) continue;
    const { jwksUrl, issuer: iss, audience } = jwt;
    Object.assign(settings, { [jwksUrl]: keySetOf(issuer), [iss]: ISSUER, [audience]: AUDIENCE });
    const scopes = askedScopes(contract, name);
    const token = await accessToken(issuer, { issuer: ISSUER, audience: AUDIENCE, scopes });
    credentials[name] = presented(scheme, token);
  }
  return { settings, credentials };
}

const ISSUER = "urn:contract-edge-service:scenario-issuer";
const AUDIENCE = "urn:contract-edge-service:scenario-api";

/** The app of `contract` as deployed, in the sandbox setting, with a sandbox of its own. */
async function sandboxFetch(contract: Contract, mode: string) {
  const { app } = await builtApp(contract, {});
  const { settings, credentials } = await deploymentOf(contract);
  const env = {
    ...settings,
    RESPONSE_VALIDATION: mode,
    [UNHANDLED_VAR]: "sandbox",
    [SANDBOX_BINDING]: memorySandbox(),
  } as unknown as Env;
  const sandbox = crypto.randomUUID();
  const fetch = (request: Request) => {
    const headers = new Headers(request.headers);
    headers.set("sandbox-id", sandbox);
    return Promise.resolve(app.fetch(new Request(request, { headers }), env));
  };
  return { fetch, credentials };
}

/** The invalid answers by class, most first, each with its count and two examples. */
function byClass(report: ScenarioReport): string[] {
  const classes = new Map<string, string[]>();
  for (const answer of report.invalid)
    answer.classes.forEach((name, i) => {
      const example = `${answer.operationId} ${answer.label}: ${answer.failures[i]}`;
      classes.set(name, [...(classes.get(name) ?? []), example]);
    });
  return [...classes.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(
      ([name, examples]) =>
        `${examples.length} × ${name}\n      e.g. ${examples.slice(0, 2).join("\n      e.g. ")}`,
    );
}

/** How many operations the sandbox places, and why the rest are not, by reason: printed. */
function placement(name: string, contract: Contract): void {
  const placed = placeOperations(contract);
  const left = new Map<string, number>();
  for (const { place, why } of placed)
    if (place === "examples") left.set(why, (left.get(why) ?? 0) + 1);
  const count = placed.filter((p) => p.place !== "examples").length;
  console.log(
    [
      `placement: ${name}: ${count} of ${placed.length} operations placed`,
      ...[...left].sort((a, b) => b[1] - a[1]).map(([why, n]) => `  ${n} × ${why}`),
    ].join("\n"),
  );
}

/** The walk of one app in every mode, printed; what is invalid or unmet, for the assertions. */
async function walkAll(name: string, contract: Contract) {
  placement(name, contract);
  const invalid: string[] = [];
  const unmet: string[] = [];
  let ran = 0;
  for (const mode of MODES) {
    const report = await scenario(contract, {
      ...(await sandboxFetch(contract, mode)),
      validator: ajvCheck,
    });
    ran += report.ran.length;
    const lines = [
      `scenario: ${name} (${mode}): ${report.resources.length} resources placed, ${report.ran.length} steps run, ${report.invalid.length} answers invalid, ${report.notRun.length} steps not run, ${report.unmet.length} expectations unmet`,
      ...byClass(report).map((line) => `  invalid: ${line}`),
      ...report.notRun.map((line) => `  not run: ${line}`),
      ...report.unmet.map((line) => `  unmet: ${line}`),
    ];
    console.log(lines.join("\n"));
    invalid.push(
      ...report.invalid.map((a) => `${mode} ${a.operationId} ${a.label}: ${a.failures.join("; ")}`),
    );
    unmet.push(...report.unmet.map((line) => `${mode} ${line}`));
  }
  return { invalid, unmet, ran };
}

/** Reads a document where it is: JSON, or YAML as it is written. */
const documentAt = (file: string) =>
  file.endsWith(".json")
    ? (JSON.parse(readFileSync(file, "utf8")) as Json)
    : { yaml: readFileSync(file, "utf8") };

/** The assertions every app is held to: steps ran, no invalid answer, nothing unmet. */
function expectValid(
  name: string,
  walked: Awaited<ReturnType<typeof walkAll>>,
  mustPlace = true,
): void {
  // A real document may place nothing (an RPC API whose every call is a POST): its
  // placement is printed, and there is nothing to walk.
  if (mustPlace) expect(walked.ran, `${name}: no step ran`).toBeGreaterThan(0);
  expect.soft(walked.invalid).toEqual([]);
  expect.soft(walked.unmet).toEqual([]);
}

describe("a scenario walk over each placed resource, every answer held to the served document", () => {
  for (const [name, contract] of FIXTURE_CONTRACTS)
    it(`walks ${name}: every answer as its document gives, every step as expected, in every mode`, async () => {
      expect(needsSandbox(contract), `${name} places no operation in the sandbox`).toBe(true);
      expectValid(name, await walkAll(name, contract));
    }, 120_000);

  for (const file of FIXTURE_DOCUMENTS)
    it(`walks the FIXTURE document ${file} imported: every answer as it gives, every step as expected, in every mode`, async () => {
      const { contract } = await importCase("scenario-fixture", documentAt(file));
      expect(needsSandbox(contract), `${file} places no operation in the sandbox`).toBe(true);
      expectValid(file, await walkAll(file, contract));
    }, 120_000);

  if (REAL_DOCUMENTS.length === 0)
    it.skip("real documents: none given (set SCENARIO_DOCUMENTS=<a.yaml>,<b.json>)", () => {});
  for (const file of REAL_DOCUMENTS)
    it.skipIf(!existsSync(file))(
      `walks the real document ${file} imported: every answer as it gives, every step as expected, in every mode${existsSync(file) ? "" : " (absent: skipped)"}`,
      async () => {
        const { contract } = await importCase("scenario-real", documentAt(file));
        expectValid(file, await walkAll(file.split("/").at(-1) ?? file, contract), false);
      },
      600_000,
    );
});
