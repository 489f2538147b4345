/**
 * wrangler.toml and .dev.vars.example list exactly what the contract needs from a
 * deployment: the secrets and JWT settings part 5 names (as required secrets, with
 * placeholders, never values) and the rate limiting bindings part 8 names, with the
 * declared limit and period. They follow the shipped contract, whatever it declares, as
 * `npm run contract:deployment` (contract-deployment.ts, with test/support/deployment.ts)
 * writes them; and what it writes for FIXTURE contracts passes the same check.
 */

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { experimental_readRawConfig } from "wrangler";
import DEV_VARS_EXAMPLE from "../../.dev.vars.example?raw";
import { entryExports } from "../../src/build/generate";
import { contract } from "../../src/contract";
import type { Contract } from "../../src/contract-language/contract";
import { DESTINATIONS_VAR } from "../../src/engine/events/destinations";
import { CORS_VARS, parseCors } from "../../src/platform/cors";
import { EMPTY_CONTRACT } from "../fixtures/contracts";
import { FIXTURE_EVENTS_CONTRACT } from "../fixtures/events";
import { FIXTURE_SANDBOX_PETS_CONTRACT } from "../fixtures/sandbox";
import { FIXTURE_SECURITY_CONTRACT } from "../fixtures/security";
import { FIXTURE_VOCABULARY_CONTRACT } from "../fixtures/vocabulary";
import {
  deploymentBlock,
  devVarsExample,
  eventQueues,
  rateLimitBindings,
  requiredSecrets,
  requiredSettings,
  sandboxStorage,
  withDeploymentBlock,
} from "../support/deployment";

interface Deployment {
  readonly name?: string;
  readonly queues?: {
    readonly producers?: readonly { readonly binding: string; readonly queue: string }[];
    readonly consumers?: readonly Record<string, unknown>[];
  };
  readonly vars?: Readonly<Record<string, string>>;
  readonly secrets?: { readonly required?: readonly string[] };
  readonly ratelimits?: readonly {
    readonly name: string;
    readonly simple: { readonly limit: number; readonly period: number };
  }[];
  readonly durable_objects?: { readonly bindings?: readonly Record<string, unknown>[] };
  readonly migrations?: readonly Record<string, unknown>[];
}

// npm runs the suites from the repository's root.
const wranglerConfig = () =>
  experimental_readRawConfig({ config: "wrangler.toml" }).rawConfig as Deployment;
const devVarsExample_ = () => DEV_VARS_EXAMPLE;

/** Every way the deployment files disagree with what the contract needs; empty when they agree. */
function mismatches(c: Contract, config: Deployment, example: string): string[] {
  const found: string[] = [];
  const settings = requiredSettings(c);
  const required = [...(config.secrets?.required ?? [])].sort();
  const expected = settings.map((s) => s.name);
  if (JSON.stringify(required) !== JSON.stringify(expected))
    found.push(`wrangler.toml: [secrets] required = ${JSON.stringify(expected)}`);

  const bindings = [...(config.ratelimits ?? [])]
    .map((r) => ({ name: r.name, limit: r.simple.limit, period: r.simple.period }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const declared = rateLimitBindings(c);
  if (JSON.stringify(bindings) !== JSON.stringify(declared))
    found.push(`wrangler.toml: [[ratelimits]] ${JSON.stringify(declared)}`);

  const queues = eventQueues(c, config.name ?? "");
  const producers = [...(config.queues?.producers ?? [])].sort((a, b) =>
    a.binding.localeCompare(b.binding),
  );
  const expectedProducers = queues
    ? [queues.producer, queues.deadLetter].sort((a, b) => a.binding.localeCompare(b.binding))
    : [];
  if (JSON.stringify(producers) !== JSON.stringify(expectedProducers))
    found.push(`wrangler.toml: [[queues.producers]] ${JSON.stringify(expectedProducers)}`);
  const consumers = config.queues?.consumers ?? [];
  if (JSON.stringify(consumers) !== JSON.stringify(queues ? [queues.consumer] : []))
    found.push(`wrangler.toml: [[queues.consumers]] ${JSON.stringify(queues?.consumer ?? null)}`);
  const sandbox = sandboxStorage(c);
  if (
    JSON.stringify(config.durable_objects?.bindings ?? []) !==
    JSON.stringify(sandbox ? [sandbox.binding] : [])
  )
    found.push(
      `wrangler.toml: [[durable_objects.bindings]] ${JSON.stringify(sandbox?.binding ?? null)}`,
    );
  if (
    JSON.stringify(config.migrations ?? []) !== JSON.stringify(sandbox ? [sandbox.migration] : [])
  )
    found.push(`wrangler.toml: [[migrations]] ${JSON.stringify(sandbox?.migration ?? null)}`);
  if (queues && !(DESTINATIONS_VAR in (config.vars ?? {})))
    found.push(`wrangler.toml: [vars] ${DESTINATIONS_VAR}`);
  // The platform's CORS setting is always listed, off (empty) unless a deployment sets it.
  for (const name of Object.values(CORS_VARS))
    if (!(name in (config.vars ?? {}))) found.push(`wrangler.toml: [vars] ${name}`);

  const listed = example
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const lines = settings.map((s) => `${s.name}=${s.placeholder}`);
  if (JSON.stringify(listed.sort()) !== JSON.stringify(lines))
    found.push(`.dev.vars.example: ${lines.join(", ") || "no assignment"}`);
  return found;
}

describe("the deployment files match the shipped contract", () => {
  it("wrangler.toml and .dev.vars.example need nothing the contract does not declare", () => {
    expect(mismatches(contract, wranglerConfig(), devVarsExample_())).toEqual([]);
  });

  it("are exactly what npm run contract:deployment writes for the shipped contract", () => {
    const toml = readFileSync("wrangler.toml", "utf8");
    const raw = wranglerConfig() as Omit<Deployment, "ratelimits"> & {
      vars?: Record<string, string>;
      ratelimits?: readonly { name: string; namespace_id: string }[];
    };
    const block = deploymentBlock(contract, {
      namespaceIds: new Map((raw.ratelimits ?? []).map((r) => [r.name, r.namespace_id])),
      responseValidation: raw.vars?.RESPONSE_VALIDATION,
      vars: raw.vars,
      ...(raw.name ? { workerName: raw.name } : {}),
    });
    expect(withDeploymentBlock(toml, block)).toBe(toml);
    expect(devVarsExample(contract)).toBe(devVarsExample_());
  });

  it(".dev.vars.example holds no value: only comments and placeholders", () => {
    for (const line of devVarsExample_().split("\n")) {
      const assignment = /^\s*[A-Za-z_][A-Za-z0-9_]*=(.*)$/.exec(line);
      // A placeholder of the deployment's tools (test/support/deployment.ts), never a value:
      // each kind of setting has its own (<API_KEY>, <JWKS_URL>, <CLIENT_ID>, …).
      if (assignment) expect(assignment[1]).toMatch(/^<[A-Z][A-Z_]*>$/);
    }
  });
});

/** wrangler.toml as the generator writes it for `c`, read back as wrangler reads it. */
function writtenFor(c: Contract): Deployment {
  const toml = withDeploymentBlock(
    readFileSync("wrangler.toml", "utf8"),
    deploymentBlock(c, { workerName: "contract-edge-service" }),
  );
  const dir = mkdtempSync(join(tmpdir(), "deployment-"));
  writeFileSync(join(dir, "wrangler.toml"), toml);
  return experimental_readRawConfig({ config: join(dir, "wrangler.toml") }).rawConfig as Deployment;
}

/** The platform's vars every wrangler.toml lists, whatever the contract declares. */
const PLATFORM_VARS = Object.fromEntries(Object.values(CORS_VARS).map((name) => [name, ""]));

// The checks below start from the files a contract that declares nothing would have, so
// they hold whatever the shipped contract declares (npm run test:revision).
const bare = () => writtenFor(EMPTY_CONTRACT);
const bareExample = () => devVarsExample(EMPTY_CONTRACT);

describe("the CORS setting in the generated block", () => {
  it("is off by default, each var with a comment, and the defaults parse", () => {
    const vars = bare().vars ?? {};
    expect(vars[CORS_VARS.origins]).toBe("");
    expect(vars[CORS_VARS.credentials]).toBe("false");
    expect(vars[CORS_VARS.maxAge]).toBe("600");
    expect(
      parseCors(vars[CORS_VARS.origins], vars[CORS_VARS.credentials], vars[CORS_VARS.maxAge]),
    ).toEqual({ state: "off" });
    const block = deploymentBlock(EMPTY_CONTRACT);
    for (const name of Object.values(CORS_VARS)) {
      const lines = block.split("\n");
      const at = lines.findIndex((line) => line.startsWith(`${name} = `));
      expect(lines[at - 1], name).toMatch(/^# /);
    }
    expect(block).toContain('Never with "*"');
  });

  it("keeps the values a deployment set when the block is written again", () => {
    const set = {
      [CORS_VARS.origins]: "https://app.example.com",
      [CORS_VARS.credentials]: "true",
      // wrangler.toml may hold a number.
      [CORS_VARS.maxAge]: 120 as unknown as string,
    };
    const block = deploymentBlock(EMPTY_CONTRACT, { vars: set });
    expect(block).toContain(`${CORS_VARS.origins} = "https://app.example.com"`);
    expect(block).toContain(`${CORS_VARS.credentials} = "true"`);
    expect(block).toContain(`${CORS_VARS.maxAge} = "120"`);
  });

  it("the check names each CORS var a wrangler.toml lacks", () => {
    const config = bare();
    const { [CORS_VARS.origins]: _gone, ...vars } = config.vars ?? {};
    expect(mismatches(EMPTY_CONTRACT, { ...config, vars }, bareExample())).toEqual([
      `wrangler.toml: [vars] ${CORS_VARS.origins}`,
    ]);
  });
});

describe("the check can fail", () => {
  it("names the queues and the destinations var a FIXTURE contract with events needs; written, they pass", () => {
    const found = mismatches(FIXTURE_EVENTS_CONTRACT, bare(), bareExample());
    expect(found).toEqual([
      `wrangler.toml: [[queues.producers]] [{"binding":"EVENTS","queue":"contract-edge-service-events"},{"binding":"EVENTS_DEAD_LETTER","queue":"contract-edge-service-events-dead-letter"}]`,
      `wrangler.toml: [[queues.consumers]] {"queue":"contract-edge-service-events","max_batch_size":10,"max_retries":10,"dead_letter_queue":"contract-edge-service-events-dead-letter"}`,
      // Its POST creates a FixtureParcel: the sandbox places it (src/mocks/sandbox).
      'wrangler.toml: [[durable_objects.bindings]] {"name":"SANDBOX","class_name":"SandboxStore"}',
      'wrangler.toml: [[migrations]] {"tag":"sandbox-v1","new_sqlite_classes":["SandboxStore"]}',
      "wrangler.toml: [vars] WEBHOOK_DESTINATIONS",
    ]);
    const written = writtenFor(FIXTURE_EVENTS_CONTRACT);
    expect(
      mismatches(FIXTURE_EVENTS_CONTRACT, written, devVarsExample(FIXTURE_EVENTS_CONTRACT)),
    ).toEqual([]);
    expect((written as { vars?: Record<string, string> }).vars?.WEBHOOK_DESTINATIONS).toBe("");
  });

  it("lists a FIXTURE contract's JWT settings as required secrets, so .dev.vars supplies them locally (wrangler 4.86 loads only listed names)", () => {
    const found = mismatches(FIXTURE_VOCABULARY_CONTRACT, bare(), bareExample());
    expect(found).toContainEqual(
      'wrangler.toml: [secrets] required = ["FIXTURE_JWKS_URL","FIXTURE_JWT_AUDIENCE","FIXTURE_JWT_ISSUER","FIXTURE_ROTATED_KEY","FIXTURE_ROTATED_KEY_NEXT"]',
    );
    const block = deploymentBlock(FIXTURE_VOCABULARY_CONTRACT);
    expect(block).not.toContain('FIXTURE_JWKS_URL = ""');
    expect(block).toContain(
      'required = ["FIXTURE_JWKS_URL", "FIXTURE_JWT_AUDIENCE", "FIXTURE_JWT_ISSUER", "FIXTURE_ROTATED_KEY", "FIXTURE_ROTATED_KEY_NEXT"]',
    );
    expect(devVarsExample(FIXTURE_VOCABULARY_CONTRACT)).toContain("FIXTURE_JWKS_URL=<JWKS_URL>");
  });

  it("names every secret and binding a FIXTURE contract needs that the files lack", () => {
    const found = mismatches(FIXTURE_SECURITY_CONTRACT, bare(), bareExample());
    expect(found).toHaveLength(3);
    expect(found[0]).toContain('"FIXTURE_BASIC_CREDENTIALS"');
    expect(found[1]).toContain('"FIXTURE_CLIENT_RATE_LIMITER"');
    expect(found[2]).toContain("FIXTURE_BEARER_TOKEN=<ACCESS_TOKEN>");
    expect(found[2]).toContain("FIXTURE_PARTNER_KEY=<API_KEY>");
  });

  it("the generator writes what a FIXTURE contract needs, and the check then passes", () => {
    const toml = withDeploymentBlock(
      readFileSync("wrangler.toml", "utf8"),
      deploymentBlock(FIXTURE_SECURITY_CONTRACT),
    );
    expect(toml).toContain('required = ["FIXTURE_BASIC_CREDENTIALS", "FIXTURE_BEARER_TOKEN"');
    expect(toml).toContain('name = "FIXTURE_CLIENT_RATE_LIMITER"');
    expect(toml.match(/\[vars\]/g)).toHaveLength(1);
    const example = devVarsExample(FIXTURE_SECURITY_CONTRACT);
    expect(example).toContain("FIXTURE_BEARER_TOKEN=<ACCESS_TOKEN>");
    expect(example).not.toContain("fixture-partner-key-for-tests-only");
    const secrets = requiredSecrets(FIXTURE_SECURITY_CONTRACT);
    const config: Deployment = {
      vars: PLATFORM_VARS,
      secrets: { required: secrets.map((s) => s.name) },
      ratelimits: rateLimitBindings(FIXTURE_SECURITY_CONTRACT).map(({ name, limit, period }) => ({
        name,
        simple: { limit, period },
      })),
    };
    expect(mismatches(FIXTURE_SECURITY_CONTRACT, config, example)).toEqual([]);
  });

  it("accepts files that list exactly what a FIXTURE contract needs", () => {
    const secrets = requiredSecrets(FIXTURE_SECURITY_CONTRACT);
    const config: Deployment = {
      vars: PLATFORM_VARS,
      secrets: { required: secrets.map((s) => s.name).reverse() },
      ratelimits: rateLimitBindings(FIXTURE_SECURITY_CONTRACT).map(({ name, limit, period }) => ({
        name,
        simple: { limit, period },
      })),
    };
    const example = `# FIXTURE\n${secrets.map((s) => `${s.name}=${s.placeholder}`).join("\n")}\n`;
    expect(mismatches(FIXTURE_SECURITY_CONTRACT, config, example)).toEqual([]);
  });
});

describe("the sandbox's Durable Object in the generated block", () => {
  it("is declared, with its SQLite migration, exactly when the contract places an operation in the sandbox", () => {
    expect(sandboxStorage(EMPTY_CONTRACT)).toBeUndefined();
    expect(sandboxStorage(FIXTURE_SECURITY_CONTRACT)).toBeUndefined();
    const found = mismatches(FIXTURE_SANDBOX_PETS_CONTRACT, bare(), bareExample());
    expect(found.filter((line) => /durable_objects|migrations/.test(line))).toEqual([
      'wrangler.toml: [[durable_objects.bindings]] {"name":"SANDBOX","class_name":"SandboxStore"}',
      'wrangler.toml: [[migrations]] {"tag":"sandbox-v1","new_sqlite_classes":["SandboxStore"]}',
    ]);
    const written = writtenFor(FIXTURE_SANDBOX_PETS_CONTRACT);
    expect(writtenFor(FIXTURE_SECURITY_CONTRACT).durable_objects).toBeUndefined();
    expect(written.durable_objects?.bindings).toEqual([
      { name: "SANDBOX", class_name: "SandboxStore" },
    ]);
    expect(written.migrations).toEqual([
      { tag: "sandbox-v1", new_sqlite_classes: ["SandboxStore"] },
    ]);
    expect(mismatches(FIXTURE_SANDBOX_PETS_CONTRACT, written, bareExample())).toEqual([]);
  });

  it("names a class the Worker entry exports whenever it is declared (deploy fails otherwise)", () => {
    expect(entryExports(FIXTURE_SANDBOX_PETS_CONTRACT, true)).toContain(
      'export { SandboxStore } from "../mocks/sandbox/durable-object";',
    );
    // Without the store feature (nothing reads the records) the class rests, but is exported.
    expect(entryExports(FIXTURE_SANDBOX_PETS_CONTRACT, false)).toContain(
      'export { SandboxStore } from "../mocks/sandbox/resting-store";',
    );
    expect(entryExports(EMPTY_CONTRACT, true)).not.toContain("SandboxStore");
    // As shipped: the build wrote the entry's exports from the same contract as the block.
    const declared = (wranglerConfig().durable_objects?.bindings ?? []).map((b) => b.class_name);
    const exported = readFileSync("src/generated/durable-objects.ts", "utf8");
    for (const name of declared) expect(exported).toContain(`export { ${name} }`);
    expect(exported.includes("SandboxStore")).toBe(sandboxStorage(contract) !== undefined);
    expect(readFileSync("src/index.ts", "utf8")).toContain(
      'export * from "./generated/durable-objects";',
    );
  });
});
