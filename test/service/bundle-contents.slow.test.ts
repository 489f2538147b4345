/**
 * What a Worker bundles follows what its contract declares, and nothing the build alone needs
 * ships (src/build/). A Worker is bundled here as the deploy bundles it: its contract built
 * as `npm run build:contract` builds it (the generated module, with the features the contract
 * needs), then bundled with esbuild as wrangler bundles a Worker (ES modules, browser
 * conditions); what ships is read from the metafile, as the modules that put code in the
 * output (not their sizes: the benchmark reports those). The shipped contract's Worker and
 * every FIXTURE one: no createApp, no start-up check, neither documenter, no zod JSON Schema
 * converter (where the contract's own schemas are zod/mini); the operation engine, Hono's
 * regular-expression router, jose (a JWT scheme), fast-xml-parser (an XML media type,
 * RFC 7303) and each feature of the serving engine (part 9's versions, part 8's rate limits,
 * part 5's credentials and its token introspection, part 3's transitions, part 6's events,
 * part 7's error model, form bodies) exactly when the contract uses it; the examples' answers and their value generator
 * exactly while an operation has no handler. And none of the importer (src/importer/,
 * Node-only) ships: the bundle `wrangler deploy --dry-run` makes has no module of it, none
 * of the packages only it loads, and none of the words only it writes.
 */

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { engineFeatures } from "../../src/build/features";
import { assetsOf, entryExports, generatedModule, prepareBuild } from "../../src/build/generate";
import type { Routing } from "../../src/build/routing";
import { contract } from "../../src/contract";
import { type Contract, declaresXml } from "../../src/contract-language/contract";
import { needsEngine, needsJwt, SERVING_FEATURES } from "../../src/contract-language/needs";
import { catalogued } from "../../src/contract-language/problem-catalogue";
import type { EngineFeature } from "../../src/engine/features";
import { outlineOperation } from "../../src/engine/operations/model";
import { handlers as shippedHandlers } from "../../src/handlers";
import { STYLESHEET } from "../../src/platform/html";
import { FIXTURE_ERROR_BODIES_CONTRACT } from "../fixtures/error-bodies";
import { FIXTURE_EVENTS_CONTRACT } from "../fixtures/events";
import { FIXTURE_EXAMPLES_CONTRACT, FIXTURE_EXAMPLES_HANDLERS } from "../fixtures/examples";
import { FIXTURE_INTROSPECTION_CONTRACT } from "../fixtures/introspection";
import { FIXTURE_HANDLERS, FIXTURE_OPERATIONS_CONTRACT } from "../fixtures/operations";
import { FIXTURE_STYLES_CONTRACT } from "../fixtures/parameter-styles";
import {
  FIXTURE_SANDBOX_KEYED_CONTRACT,
  FIXTURE_SANDBOX_KEYED_HANDLERS,
} from "../fixtures/sandbox";
import { FIXTURE_SECURITY_CONTRACT } from "../fixtures/security";
import { FIXTURE_STATES_CONTRACT, fixtureStatesHandlers } from "../fixtures/states";
import { FIXTURE_VERIFIED_CONTRACT, FIXTURE_VERIFIED_HANDLERS } from "../fixtures/verified";
import { FIXTURE_VERSIONS_CONTRACT } from "../fixtures/versions";
import { FIXTURE_VOCABULARY_CONTRACT } from "../fixtures/vocabulary";
import { ENGINE_PROBLEM_SLUGS } from "../support/catalogue";
import { BENCH_FIXTURE_CONTRACT, BENCH_FIXTURE_HANDLERS } from "../tools/bench/fixture-operation";

interface Bundle {
  /** The modules that put code in the bundle (a module imported only for what is shaken out is not one). */
  readonly shipped: string[];
  readonly text: string;
}

async function bundleOf(entry: string): Promise<Bundle> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    external: ["cloudflare:*"],
    metafile: true,
    minify: true,
    logLevel: "silent",
  });
  const shipped = Object.values(result.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([input]) => input),
  );
  return { shipped, text: result.outputFiles.map((file) => file.text).join("") };
}

const has = (inputs: readonly string[], fragment: string) =>
  inputs.some((input) => input.includes(fragment));

/** Where the bundles of FIXTURE Workers are made (gitignored). */
const ARTIFACTS = resolve("test/artifacts/bundles");

/** A FIXTURE Worker: the module (from the project's root) that exports its contract and handlers. */
interface FixtureWorker {
  readonly contract: Contract;
  readonly module: string;
  readonly contractName: string;
  /** The handlers, as an expression of the module's exports, and as that expression's value. */
  readonly handlers?: {
    readonly name: string;
    readonly expression: string;
    readonly value: object;
  };
}

/** The engine's features a FIXTURE Worker is given: its contract's, and examples while an operation has no handler. */
const featuresOf = (worker: FixtureWorker, unhandledAnswers = true): EngineFeature[] =>
  engineFeatures(
    worker.contract,
    (worker.handlers?.value ?? {}) as Readonly<Record<string, unknown>>,
    unhandledAnswers,
  );

/**
 * The Worker of a FIXTURE contract as a deploy makes it: the build's module for it, and an
 * entry that serves it as src/index.ts serves the shipped one.
 */
async function deployedBundle(
  name: string,
  worker: FixtureWorker,
  unhandledAnswers = true,
): Promise<Bundle & { readonly routing?: Routing }> {
  const dir = join(ARTIFACTS, name);
  mkdirSync(dir, { recursive: true });
  const to = (path: string) => relative(dir, resolve(path)).replaceAll("\\", "/");
  const made = await prepareBuild(
    worker.contract,
    (worker.handlers?.value ?? {}) as never,
    unhandledAnswers,
  );
  // Its documents among the assets, as the build writes them (src/build/write.ts).
  const { built } = assetsOf(made.built);
  writeFileSync(
    join(dir, "generated.ts"),
    generatedModule(
      { needed: made.needed, built, routing: made.routing, sandboxCards: made.sandboxCards },
      `${to("src")}/`,
    ),
  );
  // The Durable Object classes, as src/index.ts re-exports them from the build's module.
  const stored = made.needed.engine?.includes("store") ?? false;
  writeFileSync(
    join(dir, "durable-objects.ts"),
    entryExports(worker.contract, stored).replaceAll('"../', `"${to("src")}/`),
  );
  const { handlers } = worker;
  const imported = [worker.contractName, ...(handlers ? [handlers.name] : [])].join(", ");
  writeFileSync(
    join(dir, "entry.ts"),
    `import { BUILT } from "./generated";
export * from "./durable-objects";
import { serveApp } from "${to("src/serve-app")}";
import { ${imported} } from "${to(worker.module)}";

const app = serveApp(${worker.contractName}, { ${handlers ? `handlers: ${handlers.expression}, ` : ""}...BUILT } as never);
export default { fetch: app.fetch, queue: app.queue };
`,
  );
  return { ...(await bundleOf(join(dir, "entry.ts"))), routing: made.routing };
}

/** The module that holds each feature of the serving engine: in a bundle exactly with the feature. */
const FEATURE_MODULES: Readonly<Record<EngineFeature, string>> = {
  versions: "src/engine/versions/negotiate.ts",
  rateLimits: "src/engine/limits/enforce.ts",
  security: "src/engine/authentication/authenticate.ts",
  introspection: "src/engine/authentication/introspection.ts",
  signatures: "src/engine/authentication/aws-sigv4.ts",
  jwt: "src/engine/authentication/verify-jwt.ts",
  states: "src/engine/states/transition.ts",
  events: "src/engine/events/",
  errorModel: "src/engine/error-model.ts",
  forms: "src/engine/request/forms.ts",
  examples: "src/mocks/examples/answer.ts",
  store: "src/mocks/sandbox/store.ts",
  sandbox: "src/mocks/sandbox/answer.ts",
};

/**
 * Every feature of the serving engine: those a contract uses, the examples' answers, and the
 * sandbox's store and answers.
 */
const ENGINE_FEATURES: readonly EngineFeature[] = [
  ...SERVING_FEATURES,
  "examples",
  "store",
  "sandbox",
];

/** The sandbox's planner (where it places each operation): in a bundle exactly with its answers. */
const PLANNER = "src/mocks/sandbox/place.ts";

/** The examples' value generator: in a bundle exactly with the examples feature. */
const GENERATOR = "src/mocks/examples/generate.ts";

/** What only the build runs: createApp, the build's engine, the start-up checks, both documenters. */
const BUILD_ONLY = [
  "src/app.ts",
  "src/build/",
  "src/build-engine.ts",
  "src/engine/index.ts",
  "src/mocks/examples/make-book.ts",
  "startup-checks.ts",
  "src/engine/openapi/",
  "src/platform/openapi/",
  "src/engine/versions/for-version.ts",
];

/** zod's JSON Schema converter, which the build alone runs. */
const CONVERTER = ["zod/v4/core/to-json-schema.js", "zod/v4/core/json-schema-generator.js"];

/**
 * No problem type's page is in a Worker's script: answers carry a type's facts (its URI,
 * title and status, RFC 9457 §3.1), and the build serves its page among the assets
 * (src/contract-language/problem-catalogue.ts, `ProblemFacts` apart from `ProblemPage`).
 * Nor is the stylesheet the pages link to: it is an asset too.
 */
function expectNoProblemPages(text: string): void {
  expect(text.includes(STYLESHEET.slice(0, 60)), "the stylesheet").toBe(false);
  for (const slug of ENGINE_PROBLEM_SLUGS) {
    const page = catalogued(slug);
    expect(text.includes(`${page?.description.slice(0, 80)}`), slug).toBe(false);
    for (const meaning of Object.values(page?.members ?? {}).filter(
      (m) => !m.startsWith("The id of the request"),
    ))
      expect(text.includes(meaning), `${slug}: ${meaning}`).toBe(false);
  }
}

/** The engine's features in `shipped` are exactly those `used` names. */
function expectFeatures(shipped: readonly string[], used: readonly EngineFeature[]): void {
  for (const feature of ENGINE_FEATURES)
    expect(has(shipped, FEATURE_MODULES[feature]), `${feature}: ${FEATURE_MODULES[feature]}`).toBe(
      used.includes(feature),
    );
  expect(has(shipped, GENERATOR), GENERATOR).toBe(used.includes("examples"));
  expect(has(shipped, PLANNER), PLANNER).toBe(used.includes("sandbox"));
}

/** The FIXTURE sandbox contract without handlers, and with one for each operation. */
const KEYED: FixtureWorker = {
  contract: FIXTURE_SANDBOX_KEYED_CONTRACT,
  module: "test/fixtures/sandbox.ts",
  contractName: "FIXTURE_SANDBOX_KEYED_CONTRACT",
};
const EACH: FixtureWorker = {
  ...KEYED,
  handlers: {
    name: "FIXTURE_SANDBOX_KEYED_HANDLERS",
    expression: "FIXTURE_SANDBOX_KEYED_HANDLERS",
    value: FIXTURE_SANDBOX_KEYED_HANDLERS,
  },
};

describe("a Worker's bundle", () => {
  it("as shipped: the engine, its features, its router and jose exactly when the shipped contract needs them; no converter, no documenter, no start-up check", async () => {
    // Derived from the shipped contract, so this holds for the empty one and for a revision.
    const shipped: Contract = contract;
    const bundle = await bundleOf("src/index.ts");
    const engine = needsEngine(shipped);
    // It is the Worker's bundle: the entry, the build's module and Hono are in it.
    for (const module of ["src/index.ts", "src/generated/contract.ts", "node_modules/hono/"])
      expect(has(bundle.shipped, module), module).toBe(true);
    expect(has(bundle.shipped, "src/engine/")).toBe(engine);
    expectNoProblemPages(bundle.text);
    // Hono's regular-expression matcher only where the build prepared one for its routes
    // (src/build/routing.ts); otherwise the trie alone.
    const prepared = readFileSync("src/generated/contract.ts", "utf8").includes("preparedRouter(");
    expect(has(bundle.shipped, "reg-exp-router")).toBe(engine && prepared);
    expect(has(bundle.shipped, "smart-router")).toBe(false);
    expect(has(bundle.shipped, "node_modules/jose/")).toBe(needsJwt(shipped));
    expect(has(bundle.shipped, "node_modules/fast-xml-parser/")).toBe(declaresXml(shipped));
    expect(has(bundle.shipped, "src/engine/xml/")).toBe(declaresXml(shipped));
    expect(has(bundle.shipped, "trie-router")).toBe(true);
    expectFeatures(bundle.shipped, engine ? engineFeatures(shipped, shippedHandlers) : []);
    for (const module of [...BUILD_ONLY, ...CONVERTER])
      expect(bundle.shipped.filter((input) => input.includes(module))).toEqual([]);
    expect(bundle.text.includes("toJSONSchema")).toBe(false);
    // The API reference is rendered when the Worker is built, and its page is a static asset:
    // neither the renderer nor the page is in the script (issue 25, point 3).
    for (const renderer of ["page", "entry", "operation", "schema", "sections"])
      expect(has(bundle.shipped, `src/platform/reference/${renderer}.ts`), renderer).toBe(false);
    expect(bundle.text).not.toContain("Platform endpoints");
  });

  it("with operations and nothing else (the bench's FIXTURE operation, zod/mini): the engine and its router, none of its features, no converter", async () => {
    const { shipped, text } = await deployedBundle("bench-operation", {
      contract: BENCH_FIXTURE_CONTRACT,
      module: "test/tools/bench/fixture-operation.ts",
      contractName: "BENCH_FIXTURE_CONTRACT",
      handlers: {
        name: "BENCH_FIXTURE_HANDLERS",
        expression: "BENCH_FIXTURE_HANDLERS",
        value: BENCH_FIXTURE_HANDLERS,
      },
    });
    expect(has(shipped, "src/engine/operations/")).toBe(true);
    expect(has(shipped, "reg-exp-router")).toBe(true);
    expect(has(shipped, "node_modules/zod/")).toBe(true);
    expectFeatures(shipped, []);
    for (const module of [
      ...BUILD_ONLY,
      ...CONVERTER,
      "node_modules/jose/",
      "node_modules/fast-xml-parser/",
      "src/engine/xml/",
    ])
      expect(shipped.filter((input) => input.includes(module))).toEqual([]);
    expect(text.includes("toJSONSchema")).toBe(false);
    // Its answers name the problem types they are of; the types' pages are not in it.
    expect(text).toContain(catalogued("validation-failed")?.title);
    expectNoProblemPages(text);
  });

  it("the examples' answers and their value generator exactly while an operation has no handler: the same FIXTURE contract, with one handler, then a handler for each", {
    timeout: 60_000,
  }, async () => {
    const examples = {
      contract: FIXTURE_EXAMPLES_CONTRACT,
      module: "test/fixtures/examples.ts",
      contractName: "FIXTURE_EXAMPLES_CONTRACT",
    };
    const one: FixtureWorker = {
      ...examples,
      handlers: {
        name: "FIXTURE_EXAMPLES_HANDLERS",
        expression: "FIXTURE_EXAMPLES_HANDLERS",
        value: FIXTURE_EXAMPLES_HANDLERS,
      },
    };
    const answer = FIXTURE_EXAMPLES_HANDLERS.fixtureHandledGadget;
    const each: FixtureWorker = {
      ...examples,
      handlers: {
        name: "FIXTURE_EXAMPLES_HANDLERS",
        expression:
          "Object.fromEntries(Object.keys(FIXTURE_EXAMPLES_CONTRACT.operations).map((id) => [id, FIXTURE_EXAMPLES_HANDLERS.fixtureHandledGadget]))",
        value: Object.fromEntries(
          Object.keys(FIXTURE_EXAMPLES_CONTRACT.operations).map((id) => [id, answer]),
        ),
      },
    };
    expect(featuresOf(one)).toContain("examples");
    expect(featuresOf(each)).not.toContain("examples");
    for (const [name, worker] of [
      ["examples-one-handler", one],
      ["examples-every-handler", each],
    ] as const) {
      const { shipped } = await deployedBundle(name, worker);
      expect(has(shipped, "src/engine/operations/unhandled.ts")).toBe(true);
      expectFeatures(shipped, featuresOf(worker));
    }
  });

  it("the sandbox's answers exactly while an operation it places has no handler, its store while it places one: a FIXTURE contract without handlers, then with a handler for each", {
    timeout: 60_000,
  }, async () => {
    expect(featuresOf(KEYED)).toEqual(expect.arrayContaining(["store", "sandbox"]));
    expect(featuresOf(EACH)).toContain("store");
    expect(featuresOf(EACH)).not.toContain("sandbox");
    for (const [name, worker] of [
      ["sandbox-no-handler", KEYED],
      ["sandbox-every-handler", EACH],
    ] as const)
      expectFeatures((await deployedBundle(name, worker)).shipped, featuresOf(worker));
  });

  it("neither the examples' nor the sandbox's answers nor its store in an upload whose deployment answers 501 (src/build/write.ts): the same FIXTURE contract without handlers exports the resting Durable Object", {
    timeout: 60_000,
  }, async () => {
    const features = featuresOf(KEYED, false);
    for (const mock of ["store", "examples", "sandbox"]) expect(features).not.toContain(mock);
    const { shipped } = await deployedBundle("sandbox-uploaded-for-501", KEYED, false);
    expectFeatures(shipped, features);
    expect(has(shipped, "src/mocks/sandbox/resting-store.ts")).toBe(true);
    expect(has(shipped, "src/mocks/sandbox/durable-object.ts")).toBe(false);
    // With a handler, which may read the store, the store and its object come back.
    expect(featuresOf(EACH, false)).toContain("store");
    const handled = (await deployedBundle("sandbox-handled-uploaded-for-501", EACH, false)).shipped;
    expect(has(handled, "src/mocks/sandbox/durable-object.ts")).toBe(true);
    // Nor the value generator's pieces the sandbox's answers use (ids, patterns).
    expect(
      shipped.filter((input) =>
        /src\/engine\/(?:examples\/(?!book\.ts)|sandbox\/(?:place|values|items)\.ts)/.test(input),
      ),
    ).toEqual([]);
  });

  const FIXTURES: readonly [string, FixtureWorker][] = [
    ["sandbox", KEYED],
    [
      "operations",
      {
        contract: FIXTURE_OPERATIONS_CONTRACT,
        module: "test/fixtures/operations.ts",
        contractName: "FIXTURE_OPERATIONS_CONTRACT",
        handlers: {
          name: "FIXTURE_HANDLERS",
          expression: "FIXTURE_HANDLERS",
          value: FIXTURE_HANDLERS,
        },
      },
    ],
    [
      "security",
      {
        contract: FIXTURE_SECURITY_CONTRACT,
        module: "test/fixtures/security.ts",
        contractName: "FIXTURE_SECURITY_CONTRACT",
      },
    ],
    [
      "verified (AWS SigV4, mutual TLS, code)",
      {
        contract: FIXTURE_VERIFIED_CONTRACT,
        module: "test/fixtures/verified.ts",
        contractName: "FIXTURE_VERIFIED_CONTRACT",
        handlers: {
          name: "FIXTURE_VERIFIED_HANDLERS",
          expression: "FIXTURE_VERIFIED_HANDLERS",
          value: FIXTURE_VERIFIED_HANDLERS,
        },
      },
    ],
    [
      "introspection",
      {
        contract: FIXTURE_INTROSPECTION_CONTRACT,
        module: "test/fixtures/introspection.ts",
        contractName: "FIXTURE_INTROSPECTION_CONTRACT",
      },
    ],
    [
      "states",
      {
        contract: FIXTURE_STATES_CONTRACT,
        module: "test/fixtures/states.ts",
        contractName: "FIXTURE_STATES_CONTRACT",
        handlers: {
          name: "fixtureStatesHandlers",
          expression: "fixtureStatesHandlers(new Map())",
          value: fixtureStatesHandlers(new Map()),
        },
      },
    ],
    [
      "events",
      {
        contract: FIXTURE_EVENTS_CONTRACT,
        module: "test/fixtures/events.ts",
        contractName: "FIXTURE_EVENTS_CONTRACT",
      },
    ],
    [
      "versions",
      {
        contract: FIXTURE_VERSIONS_CONTRACT,
        module: "test/fixtures/versions.ts",
        contractName: "FIXTURE_VERSIONS_CONTRACT",
      },
    ],
    [
      "error bodies",
      {
        contract: FIXTURE_ERROR_BODIES_CONTRACT,
        module: "test/fixtures/error-bodies.ts",
        contractName: "FIXTURE_ERROR_BODIES_CONTRACT",
      },
    ],
    [
      "parameter styles",
      {
        contract: FIXTURE_STYLES_CONTRACT,
        module: "test/fixtures/parameter-styles.ts",
        contractName: "FIXTURE_STYLES_CONTRACT",
      },
    ],
    [
      "vocabulary (JWT, XML, forms)",
      {
        contract: FIXTURE_VOCABULARY_CONTRACT,
        module: "test/fixtures/vocabulary.ts",
        contractName: "FIXTURE_VOCABULARY_CONTRACT",
      },
    ],
  ];

  it("the FIXTURE Workers, together, use every feature of the serving engine and leave each out somewhere", () => {
    const used = FIXTURES.map(([, worker]) => featuresOf(worker));
    for (const feature of ENGINE_FEATURES) {
      expect(
        used.some((features) => features.includes(feature)),
        feature,
      ).toBe(true);
      expect(
        used.some((features) => !features.includes(feature)),
        feature,
      ).toBe(true);
    }
  });

  it.each(FIXTURES)(
    "FIXTURE %s: each feature of the engine exactly when the contract uses it; jose, fast-xml-parser likewise; the router the build chose; no documenter, no problem page",
    { timeout: 60_000 },
    async (name, worker) => {
      const { shipped, text, routing } = await deployedBundle(name.replaceAll(/\W+/g, "-"), worker);
      expectNoProblemPages(text);
      // The router the build chose (src/build/routing.ts), and only it: Hono's prepared
      // expression or the trie alone; never the default pair, which decides at run time.
      expect(has(shipped, "reg-exp-router")).toBe(routing?.kind === "prepared");
      expect(has(shipped, "smart-router")).toBe(false);
      // Nor the failures each operation's documents list (src/engine/operations/model.ts):
      // none of their descriptions is in the script.
      const documented = Object.entries(worker.contract.operations).flatMap(([id, operation]) =>
        outlineOperation(worker.contract, id, operation, false).failures.map((f) => f.description),
      );
      expect(documented.length).toBeGreaterThan(0);
      expect(documented.filter((description) => text.includes(description))).toEqual([]);
      expect(has(shipped, "src/engine/operations/")).toBe(true);
      expectFeatures(shipped, featuresOf(worker));
      expect(has(shipped, "node_modules/jose/")).toBe(needsJwt(worker.contract));
      expect(has(shipped, "node_modules/fast-xml-parser/")).toBe(declaresXml(worker.contract));
      expect(has(shipped, "node_modules/aws4fetch/")).toBe(
        featuresOf(worker).includes("signatures"),
      );
      for (const module of BUILD_ONLY)
        expect(shipped.filter((input) => input.includes(module))).toEqual([]);
    },
  );
});

describe("the typed client's bundle (src/client, as a caller's bundler makes it)", () => {
  it("has none of the server: no platform, engine, Hono, jose nor fast-xml-parser; of the contract language only how a schema is read", async () => {
    const { shipped, text } = await bundleOf("src/client/index.ts");
    expect(has(shipped, "src/client/index.ts")).toBe(true);
    // `schemaOf` and `resolveSchema` (src/contract-language/lazy.ts): the language's own
    // reading of a declared schema, shaken down to those two functions; and of zod's
    // definitions (zod-def.ts), the walk under its wrappers.
    expect(shipped.filter((input) => input.includes("src/contract-language/")).sort()).toEqual([
      "src/contract-language/contract.ts",
      "src/contract-language/lazy.ts",
      "src/contract-language/path-key.ts",
      "src/contract-language/zod-def.ts",
    ]);
    for (const fragment of [
      "src/platform/",
      "src/engine/",
      "src/contract/",
      "src/app.ts",
      "src/serve-app.ts",
      "node_modules/hono/",
      "node_modules/jose/",
      "node_modules/fast-xml-parser/",
      "node_modules/aws4fetch/",
    ])
      expect(
        shipped.filter((input) => input.includes(fragment)),
        fragment,
      ).toEqual([]);
    // zod's core is an input, but only its metadata registry is kept: none of its schemas' code.
    expect(text).toContain("__zod_globalRegistry");
    expect(text).not.toContain("toJSONSchema");
    expect(text).not.toMatch(/Invalid input/);
  });
});

/** The deploy bundle exactly as `wrangler deploy` would upload it, with esbuild's metafile. */
function deployBundle(): { inputs: string[]; code: string } {
  const dir = mkdtempSync(join(tmpdir(), "bundle-importer-"));
  try {
    const result = spawnSync(
      "npx",
      ["wrangler", "deploy", "--dry-run", "--outdir", dir, "--metafile", join(dir, "meta.json")],
      { encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    if (result.status !== 0) throw new Error(`wrangler deploy --dry-run failed: ${result.stderr}`);
    const meta = JSON.parse(readFileSync(join(dir, "meta.json"), "utf8")) as {
      inputs: Record<string, unknown>;
    };
    const code = readdirSync(dir)
      .filter((name) => name.endsWith(".js"))
      .map((name) => readFileSync(join(dir, name), "utf8"))
      .join("\n");
    return { inputs: Object.keys(meta.inputs), code };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What only the importer loads: its own modules and the packages no Worker module imports. */
const IMPORTER_ONLY = [
  "src/importer/",
  "node_modules/@apidevtools/json-schema-ref-parser/",
  "node_modules/js-yaml/",
  "node_modules/undici/",
  "node_modules/typescript/",
];

/** Words only the importer's code holds (src/importer/names.ts, platform-additions.ts, changes.ts, import.ts). */
const IMPORTER_WORDS = [
  "x-renamed-from",
  "x-import-errors",
  "Files this import wrote",
  "IMPORT-REPORT",
  "import-backup",
  "import-last.log",
];

describe("the deploy bundle (wrangler deploy --dry-run)", () => {
  it("has none of the importer (no module of it, no package only it loads, no word only it writes) and the served contract, not the declared one", {
    timeout: 180_000,
  }, () => {
    const { inputs, code } = deployBundle();
    // It is the Worker's bundle: the entry and Hono are in it, so the absences below mean something.
    // (Its metafile's inputs: every module read, so an absence here is an absence from the build.)
    expect(has(inputs, "src/index.ts")).toBe(true);
    expect(has(inputs, "node_modules/hono/")).toBe(true);
    // The contract it serves is the build's copy without the documents' text
    // (src/build/served-contract.ts): no module of the declared one is even read.
    expect(has(inputs, "src/generated/served-contract/index.js")).toBe(true);
    expect(inputs.filter((i) => i.includes("src/contract/"))).toEqual([]);
    for (const fragment of IMPORTER_ONLY)
      expect(inputs.filter((i) => i.includes(fragment))).toEqual([]);
    // Words of the importer's own code; one the contract's data holds (an imported contract
    // keeps x-renamed-from in a renamed schema's metadata) is the contract's, so not looked for.
    const contractText = readdirSync("src/contract")
      .filter((name) => name.endsWith(".ts"))
      .map((name) => readFileSync(join("src/contract", name), "utf8"))
      .join("\n");
    const words = IMPORTER_WORDS.filter((word) => !contractText.includes(word));
    expect(words.length).toBeGreaterThan(3);
    for (const word of words) expect(code.includes(word), word).toBe(false);
  });
});
