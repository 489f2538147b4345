/**
 * What the build makes (src/build/generate.ts) is what the engine computed before: the
 * OpenAPI document of each FIXTURE contract with a reviewed snapshot is that snapshot, byte
 * for byte, and the deployed form of each FIXTURE app (`serveApp` from what the build made)
 * answers every `/_service` document (the API reference pages among them) exactly as
 * `createApp` does in process: the same status, media type, Content-Security-Policy, entity
 * tag (RFC 9110 §8.8.3) and bytes, the same 304 to a matching
 * `If-None-Match` (RFC 9110 §13.1.2), and the same 404 to a version the contract does not
 * declare, also with the deployment's part of the report (destinations, CORS) filled in.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { assetsOf, prepareBuild } from "../../src/build/generate";
import { BUILD_ENGINE } from "../../src/build-engine";
import { contract as shipped } from "../../src/contract";
import type { Contract } from "../../src/contract-language/contract";
import type { ExampleBook } from "../../src/engine/example-book";
import { corsSetting, corsStatus } from "../../src/platform/cors";
import { MAX_BODY_BYTES, platformDefaults } from "../../src/platform/defaults";
import { statusReport } from "../../src/platform/status";
import type { ServiceApp } from "../../src/serve-app";
import { EMPTY_CONTRACT, FIXTURE_ONE_PART_CONTRACTS } from "../fixtures/contracts";
import {
  FIXTURE_ERROR_BODIES_CONTRACT,
  FIXTURE_ERROR_BODIES_HANDLERS,
} from "../fixtures/error-bodies";
import { FIXTURE_EVENTS_CONTRACT, FIXTURE_EVENTS_HANDLERS } from "../fixtures/events";
import { FIXTURE_EXAMPLES_CONTRACT, FIXTURE_EXAMPLES_HANDLERS } from "../fixtures/examples";
import { FIXTURE_HANDLERS, FIXTURE_OPERATIONS_CONTRACT } from "../fixtures/operations";
import { FIXTURE_STYLES_CONTRACT, FIXTURE_STYLES_HANDLERS } from "../fixtures/parameter-styles";
import { FIXTURE_SECURITY_CONTRACT, FIXTURE_SECURITY_HANDLERS } from "../fixtures/security";
import { FIXTURE_STATES_CONTRACT, fixtureStatesHandlers } from "../fixtures/states";
import { FIXTURE_VERSIONS_HANDLERS, fixtureVersionsContract } from "../fixtures/versions";
import { FIXTURE_VOCABULARY_CONTRACT, FIXTURE_VOCABULARY_HANDLERS } from "../fixtures/vocabulary";
import { assetsApp, builtApp, inProcessApp } from "../support/built-app";
import { importCase } from "../support/import-case";

const SNAPSHOTS = "../engine/openapi/__snapshots__";

/** The app a test builds in process, with what the contract needs. */
const inProcess = inProcessApp;

const pretty = (json: string) => `${JSON.stringify(JSON.parse(json), null, 2)}\n`;

describe("the build's OpenAPI documents are the reviewed snapshots", () => {
  it.each([
    ["openapi.empty.json", EMPTY_CONTRACT, {}],
    ["openapi.fixture-operations.json", FIXTURE_OPERATIONS_CONTRACT, FIXTURE_HANDLERS],
    ["openapi.fixture-vocabulary.json", FIXTURE_VOCABULARY_CONTRACT, FIXTURE_VOCABULARY_HANDLERS],
  ] as const)("%s", async (snapshot, contract, handlers) => {
    const { built } = await prepareBuild(contract as Contract, handlers as never);
    expect(pretty(built.openapi.current.body)).toBe(
      readFileSync(new URL(`${SNAPSHOTS}/${snapshot}`, import.meta.url), "utf8"),
    );
  });
});

/** Every request for a `/_service` document whose answer follows from the contract. */
function documentRequests(documentPaths: readonly string[]): Request[] {
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Request(`https://fixture.test${path}`, {
      headers: { "x-request-id": "fixture", ...headers },
    });
  return [
    ...documentPaths.map((path) => get(path)),
    get("/_service/openapi.json?version=fixture-undeclared"),
    get("/_service/openapi.json?version=constructor"),
    get("/_service/reference?version=fixture-undeclared"),
    get("/_service/reference?version=constructor"),
    get("/_service/interface"),
    get("/_service/interface", { accept: "text/html" }),
  ];
}

/** Status, the headers a client reads, and the bytes; then the 304 its own entity tag gets. */
async function answer(app: ServiceApp, request: Request, env: object): Promise<unknown> {
  const response = await app.fetch(request.clone(), env as Env);
  const headers = Object.fromEntries(
    ["content-type", "etag", "cache-control", "vary", "content-security-policy"].map((name) => [
      name,
      response.headers.get(name),
    ]),
  );
  const etag = response.headers.get("etag");
  const revalidated =
    etag &&
    (await app.fetch(
      new Request(request, {
        headers: { ...Object.fromEntries(request.headers), "if-none-match": etag },
      }),
      env as Env,
    ));
  return {
    url: request.url,
    status: response.status,
    headers,
    body: await response.text(),
    notModified: revalidated ? revalidated.status : undefined,
  };
}

const APPS: readonly [string, Contract, object][] = [
  ["the shipped contract", shipped, {}],
  ["a contract that declares nothing", EMPTY_CONTRACT, {}],
  ...Object.entries(FIXTURE_ONE_PART_CONTRACTS).map(
    ([part, contract]): [string, Contract, object] => [`FIXTURE part ${part}`, contract, {}],
  ),
  ["FIXTURE operations", FIXTURE_OPERATIONS_CONTRACT, FIXTURE_HANDLERS],
  ["FIXTURE vocabulary (JWT, XML)", FIXTURE_VOCABULARY_CONTRACT, FIXTURE_VOCABULARY_HANDLERS],
  ["FIXTURE security", FIXTURE_SECURITY_CONTRACT, FIXTURE_SECURITY_HANDLERS],
  ["FIXTURE states", FIXTURE_STATES_CONTRACT, fixtureStatesHandlers(new Map())],
  ["FIXTURE events", FIXTURE_EVENTS_CONTRACT, FIXTURE_EVENTS_HANDLERS],
  ["FIXTURE parameter styles", FIXTURE_STYLES_CONTRACT, FIXTURE_STYLES_HANDLERS],
  ["FIXTURE own error bodies", FIXTURE_ERROR_BODIES_CONTRACT, FIXTURE_ERROR_BODIES_HANDLERS],
  ...(["header", "query", "path"] as const).map((placement): [string, Contract, object] => [
    `FIXTURE versions (in ${placement})`,
    fixtureVersionsContract(
      placement === "path" ? { in: "path" } : { in: placement, name: "api-version" },
    ),
    FIXTURE_VERSIONS_HANDLERS,
  ]),
];

/** What only the deployment decides: a receiver for every event, and CORS on for one origin. */
const DEPLOYMENT = {
  WEBHOOK_DESTINATIONS: JSON.stringify([
    {
      url: "https://receiver.fixture.example/hooks",
      events: Object.keys(FIXTURE_EVENTS_CONTRACT.events),
      secret: "FIXTURE_HOOK_KEY",
    },
  ]),
  CORS_ALLOWED_ORIGINS: "https://app.fixture.example",
};

/**
 * The shipped contract's build and its documents grow with it: an imported one of Stripe's
 * size (452 operations, 775 schemas) takes half a minute here, a FIXTURE one a moment.
 */
const TIMEOUT =
  60_000 + 100 * (Object.keys(shipped.operations).length + Object.keys(shipped.resources).length);

describe("the deployed app serves what createApp serves, byte for byte", () => {
  it.each(APPS)("%s", { timeout: TIMEOUT }, async (_name, contract, handlers) => {
    const deployed = await builtApp(contract, handlers);
    const tested = inProcess(contract, handlers);
    const versions = Object.keys(deployed.built.openapi.versions);
    const paths = [
      "/_service/openapi.json",
      ...versions.map((v) => `/_service/openapi.json?version=${encodeURIComponent(v)}`),
      "/_service/reference",
      ...versions.map((v) => `/_service/reference?version=${encodeURIComponent(v)}`),
      ...Object.keys(deployed.built.problemPages).map((slug) => `/_service/problems/${slug}`),
      "/_service/style.css",
    ];
    // The Worker's form: the documents read from static assets through the binding.
    const assets = await assetsApp(contract, handlers);
    for (const env of [{}, DEPLOYMENT])
      for (const request of documentRequests(paths)) {
        const expected = await answer(tested, request, env);
        expect(await answer(deployed.app, request, env)).toEqual(expected);
        expect(await answer(assets.app, request, assets.env(env))).toEqual(expected);
      }
  });

  it("the report's JSON is the text statusReport gives with the deployment's destinations and CORS, byte for byte", async () => {
    const deployed = await builtApp(FIXTURE_EVENTS_CONTRACT, FIXTURE_EVENTS_HANDLERS);
    const served = await deployed.app.fetch(
      new Request("https://fixture.test/_service/interface"),
      DEPLOYMENT as unknown as Env,
    );
    const destinations = BUILD_ENGINE.destinations(DEPLOYMENT);
    const report = statusReport(
      FIXTURE_EVENTS_CONTRACT,
      platformDefaults(MAX_BODY_BYTES),
      destinations,
      corsStatus(corsSetting(DEPLOYMENT as unknown as Env)),
      new Set(Object.keys(FIXTURE_EVENTS_HANDLERS)),
      BUILD_ENGINE.answering(DEPLOYMENT),
    );
    expect(report.events.some((event) => event.destinations > 0)).toBe(true);
    expect(report.cors.enabled).toBe(true);
    expect(await served.text()).toBe(JSON.stringify(report));
  });

  it("and so does the rich FIXTURE document, imported", async () => {
    const rich = await importCase("build-rich", {
      yaml: readFileSync("test/fixtures/openapi/rich-3.1.yaml", "utf8"),
    });
    const deployed = await builtApp(rich.contract);
    const paths = [
      "/_service/openapi.json",
      "/_service/reference",
      ...Object.keys(deployed.built.problemPages).map((slug) => `/_service/problems/${slug}`),
    ];
    expect(paths.length).toBeGreaterThan(5);
    for (const request of documentRequests(paths))
      expect(await answer(deployed.app, request, DEPLOYMENT)).toEqual(
        await answer(rich.app, request, DEPLOYMENT),
      );
  }, 120_000);
});

describe("the documents as the Worker's static assets, outside its script", () => {
  it("moves every document out at paths of the build's own, keeping each entity tag", async () => {
    const contract = fixtureVersionsContract({ in: "header", name: "api-version" });
    const { built } = await prepareBuild(contract, FIXTURE_VERSIONS_HANDLERS as never);
    const moved = assetsOf(built);
    const documents = [
      moved.built.openapi.current,
      ...Object.values(moved.built.openapi.versions),
      moved.built.reference.current,
      ...Object.values(moved.built.reference.versions),
      ...Object.values(moved.built.problemPages),
      moved.built.stylesheet,
      moved.built.report,
      ...("chapters" in moved.built.exampleBook ? [] : [moved.built.exampleBook]),
      ...(moved.built.defaultReport ? [moved.built.defaultReport.document] : []),
    ];
    expect(Object.keys(moved.built.reference.versions).length).toBeGreaterThan(1);
    for (const document of documents) {
      expect(document).not.toHaveProperty("body");
      expect("asset" in document && document.asset).toMatch(
        /^\/(openapi\/(current|version-\d+)\.json|reference\/(current|version-\d+)\.html|problems\/page-\d+\.html|style\.css|interface\/report(-default)?\.json|examples\/book\.json)$/,
      );
    }
    expect(moved.built.openapi.current.etag).toBe(built.openapi.current.etag);
    expect(moved.files["/openapi/current.json"]).toBe(built.openapi.current.body);
    expect(moved.built.reference.current.etag).toBe(built.reference.current.etag);
    expect(moved.files["/reference/current.html"]).toBe(built.reference.current.body);
    expect(moved.built.stylesheet.etag).toBe(built.stylesheet.etag);
    expect(moved.files["/style.css"]).toBe(built.stylesheet.body);
    // Each version's two documents share its number.
    for (const [version, document] of Object.entries(moved.built.openapi.versions))
      expect(moved.built.reference.versions[version]?.asset).toBe(
        document.asset.replace(/^\/openapi\/(.*)\.json$/, "/reference/$1.html"),
      );
    expect(JSON.parse(String(moved.files["/interface/report.json"]))).toEqual(built.report);
    expect(moved.built.defaultReport?.document.etag).toBe(built.defaultReport?.document.etag);
    expect(moved.files["/interface/report-default.json"]).toBe(built.defaultReport?.document.body);
    // What stays in the script is what the engine computes with.
    expect(moved.built.xmlSchemas).toBe(built.xmlSchemas);
  });

  it("without the ASSETS binding answers 503 (RFC 9110 §15.6.4) and names nothing; a revalidation still gets 304", async () => {
    const { app, built } = await assetsApp(FIXTURE_OPERATIONS_CONTRACT, FIXTURE_HANDLERS);
    const errors: string[] = [];
    const error = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      for (const path of [
        "/_service/openapi.json",
        "/_service/interface",
        "/_service/reference",
        ...Object.keys(built.problemPages).map((slug) => `/_service/problems/${slug}`),
        "/_service/style.css",
      ]) {
        const res = await app.fetch(new Request(`https://fixture.test${path}`), {} as Env);
        expect(res.status, path).toBe(503);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        const text = await res.text();
        expect(text).not.toContain("ASSETS");
        expect(text).not.toContain("/openapi/current.json");
        expect(text).not.toContain("/reference/current.html");
      }
      const etag = String(built.openapi.current.etag);
      const revalidated = await app.fetch(
        new Request("https://fixture.test/_service/openapi.json", {
          headers: { "if-none-match": etag },
        }),
        {} as Env,
      );
      expect(revalidated.status).toBe(304);
    } finally {
      console.error = error;
    }
    // Logged once per isolate, with the cause the answer does not give.
    expect(errors.filter((line) => line.includes("ASSETS binding is missing"))).toHaveLength(1);
  });

  it("answers from examples read from the assets, and 503 (RFC 9110 §15.6.4) where the deployment cannot read them", async () => {
    const { app, env } = await assetsApp(FIXTURE_EXAMPLES_CONTRACT);
    const get = (bindings: Env) =>
      app.fetch(new Request("https://fixture.test/fixture-gadgets"), bindings);
    const setting = { UNHANDLED_OPERATIONS: "examples" };
    const error = console.error;
    console.error = () => {};
    try {
      const unread = await get(setting as unknown as Env);
      expect(unread.status).toBe(503);
      expect(await unread.text()).not.toContain("/examples/");
    } finally {
      console.error = error;
    }
    // A later request tries again: the book is kept only once it was read.
    const answered = await get(env(setting));
    expect(answered.status).toBe(200);
    expect(answered.headers.get("answered-by")).toBe("examples");
  });

  it("serves the value and header fields the build made and checked, running no generator", async () => {
    const { app, env, files } = await assetsApp(
      FIXTURE_EXAMPLES_CONTRACT,
      FIXTURE_EXAMPLES_HANDLERS,
    );
    const ids = Object.keys(FIXTURE_EXAMPLES_CONTRACT.operations);
    const path = (id: string) => `/examples/operation-${ids.indexOf(id) + 1}.json`;
    const chapter = (id: string) => JSON.parse(String(files[path(id)])) as ExampleBook;
    const get = chapter("fixtureGetGadget").operations.fixtureGetGadget?.[0]?.["200"];
    const list = chapter("fixtureListGadgets").operations.fixtureListGadgets?.[0]?.["200"];
    expect(get?.content["application/json"]).toHaveProperty("made");
    expect(list).toHaveProperty("madeHeaders");
    // What the Worker serves is what the chapter holds: changed there, it is served changed.
    const tampered = { ...files };
    const changed = chapter("fixtureGetGadget");
    const media = changed.operations.fixtureGetGadget?.[0]?.["200"]?.content["application/json"];
    (media as { made: unknown }).made = { marker: "FIXTURE made by the build" };
    tampered[path("fixtureGetGadget")] = JSON.stringify(changed);
    const bindings = env({ UNHANDLED_OPERATIONS: "examples" }) as unknown as Record<
      string,
      unknown
    >;
    const served = await app.fetch(
      new Request("https://fixture.test/fixture-gadgets/0b6f8a4e-9c1d-4f7a-8a3e-2d5c6b7e8f90"),
      {
        ...bindings,
        ASSETS: {
          fetch: async (request: Request) =>
            new Response(tampered[new URL(request.url).pathname] ?? null, {
              status: Object.hasOwn(tampered, new URL(request.url).pathname) ? 200 : 404,
            }),
        },
        RESPONSE_VALIDATION: "off",
      } as unknown as Env,
    );
    expect(await served.json()).toEqual({ marker: "FIXTURE made by the build" });
    const listed = await app.fetch(
      new Request("https://fixture.test/fixture-gadgets"),
      env({ UNHANDLED_OPERATIONS: "examples" }),
    );
    const made = (list?.madeHeaders ?? {}) as Record<string, unknown>;
    expect(listed.headers.get("x-total-count")).toBe(String(made["x-total-count"]));
  });

  it("reads only the called operation's chapter of the book, and answers as createApp does", async () => {
    const assets = await assetsApp(FIXTURE_EXAMPLES_CONTRACT, FIXTURE_EXAMPLES_HANDLERS);
    const { app, files } = assets;
    const tested = inProcess(FIXTURE_EXAMPLES_CONTRACT, FIXTURE_EXAMPLES_HANDLERS);
    const { env: counted, read } = assets.counted({ UNHANDLED_OPERATIONS: "examples" });
    const ids = Object.keys(FIXTURE_EXAMPLES_CONTRACT.operations);
    const position = ids.indexOf("fixtureListGadgets");
    expect(position).toBeGreaterThanOrEqual(0);
    const url = "https://fixture.test/fixture-gadgets";
    const served = await app.fetch(new Request(url), counted);
    const expected = await tested.fetch(new Request(url), counted);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(await expected.text());
    expect(read).toEqual([`/examples/operation-${position + 1}.json`]);
    // Kept once read: the second call reads nothing.
    await (await app.fetch(new Request(url), counted)).text();
    expect(read).toHaveLength(1);
    // A chapter for each operation without a handler, at its place in the contract; none for
    // the handled one, and no whole book.
    const chapters = Object.keys(files).filter((path) => path.startsWith("/examples/"));
    expect(chapters.sort()).toEqual(
      ids
        .flatMap((id, i) =>
          id === "fixtureHandledGadget" ? [] : [`/examples/operation-${i + 1}.json`],
        )
        .sort(),
    );
  });
});
