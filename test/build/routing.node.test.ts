/**
 * The router the build chooses for a Worker's routes (src/build/routing.ts): Hono's
 * expression of every path, prepared by the build, when the expression can keep the routes'
 * order; the trie when a literal segment sits beside a parameter. Either way the Worker,
 * composed as deployed (`servedFeatures` with the build's routing), answers every request as the
 * default pair does in process: the same status, `Allow` (RFC 9110 §10.2.1) and body,
 * path parameters included, and never falls back to the default pair for a route the build
 * did not see.
 */
import { buildInitParams } from "hono/router/reg-exp-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { generatedModule, prepareBuild, servedFeatures } from "../../src/build/generate";
import type { Routing } from "../../src/build/routing";
import type { Contract } from "../../src/contract-language/contract";
import { defineContract } from "../../src/contract-language/define-contract";
import { preparedRouter } from "../../src/engine/routing";
import { type ServeOptions, serveApp } from "../../src/serve-app";

const FixtureEcho = z.object({ op: z.string(), params: z.record(z.string(), z.string()) });
const echo = { 200: { description: "FIXTURE echo", content: { "application/json": FixtureEcho } } };
const id = z.string().regex(/^fx-[a-z0-9]{1,8}$/);

/** FIXTURE operations whose paths Hono's expression can order: no literal beside a parameter. */
const FIXTURE_ROUTED_OPERATIONS = {
  fixtureListRooms: { method: "GET", path: "/fixture-rooms", responses: echo },
  fixtureGetRoom: {
    method: "GET",
    path: "/fixture-rooms/{roomId}",
    request: { params: z.object({ roomId: id }) },
    responses: echo,
  },
  fixtureDeleteRoom: {
    method: "DELETE",
    path: "/fixture-rooms/{roomId}",
    request: { params: z.object({ roomId: id }) },
    responses: { 204: { description: "FIXTURE deleted" } },
  },
  fixtureGetDoor: {
    method: "GET",
    path: "/fixture-rooms/{roomId}/fixture-doors/{doorId}",
    request: { params: z.object({ roomId: id, doorId: id }) },
    responses: echo,
  },
  fixtureGetFile: {
    method: "GET",
    path: "/fixture-files/{name}.json",
    request: { params: z.object({ name: id }) },
    responses: echo,
  },
} as const;

const FIXTURE_PREPARED_CONTRACT = defineContract({
  purpose: { title: "FIXTURE routes", summary: "FIXTURE: routes for the router's tests." },
  operations: FIXTURE_ROUTED_OPERATIONS,
});

/** The same, with a literal segment beside `{roomId}`: an order only the trie keeps. */
const FIXTURE_TRIE_CONTRACT = defineContract({
  purpose: { title: "FIXTURE routes", summary: "FIXTURE: routes for the router's tests." },
  operations: {
    ...FIXTURE_ROUTED_OPERATIONS,
    fixtureMyRoom: { method: "GET", path: "/fixture-rooms/mine", responses: echo },
  },
});

/** A handler per operation that answers with its id and the path parameters it was given. */
const echoing = (contract: Contract) =>
  Object.fromEntries(
    Object.keys(contract.operations).map((op) => [
      op,
      ({ params }: { params?: Record<string, string> }) =>
        op === "fixtureDeleteRoom"
          ? { status: 204 }
          : { status: 200, body: { op, params: params ?? {} } },
    ]),
  );

/** Requests that reach each route, a parameter, a wrong method, no route and the platform's own. */
const REQUESTS: readonly [string, string][] = [
  ["GET", "/fixture-rooms"],
  ["GET", "/fixture-rooms/fx-1"],
  ["DELETE", "/fixture-rooms/fx-2"],
  ["HEAD", "/fixture-rooms/fx-1"],
  ["OPTIONS", "/fixture-rooms/fx-1"],
  ["PUT", "/fixture-rooms/fx-1"],
  // Methods no route names (RFC 9110 §9.1: a method is any token): 405 on a known path.
  ["FIXTURE-METHOD", "/fixture-rooms"],
  ["PROPFIND", "/fixture-rooms/fx-1"],
  ["GET", "/fixture-rooms/NOT-AN-ID"],
  ["GET", "/fixture-rooms/mine"],
  ["GET", "/fixture-rooms/fx-1/fixture-doors/fx-9"],
  ["GET", "/fixture-rooms/fx-1/fixture-doors"],
  ["GET", "/fixture-files/fx-3.json"],
  ["GET", "/fixture-files/fx-3.xml"],
  ["GET", "/fixture-nowhere"],
  ["GET", "/_service/health"],
  ["GET", "/_service/openapi.json"],
  ["POST", "/_service/health"],
];

/** Each answer as a client sees it: status, `Allow`, media type and body. */
async function answers(contract: Contract, routing: Routing | undefined) {
  const built = await prepareBuild(contract, echoing(contract) as never);
  const app = serveApp(contract, {
    built: built.built,
    handlers: echoing(contract),
    ...servedFeatures(built.needed, routing),
  } as ServeOptions<Contract>);
  const seen: string[] = [];
  for (const [method, path] of REQUESTS) {
    const headers = { "x-request-id": "fixture-request" };
    const res = await app.request(path, { method, headers });
    const allow = res.headers.get("allow");
    seen.push(`${method} ${path} ${res.status} ${allow} ${await res.text()}`);
  }
  return seen;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the router the build chooses (src/build/routing.ts)", () => {
  it("is Hono's prepared expression while no literal segment sits beside a parameter", async () => {
    const build = await prepareBuild(FIXTURE_PREPARED_CONTRACT, {});
    expect(build.routing?.kind).toBe("prepared");
    const module = generatedModule(build);
    expect(module).toContain('import { preparedRouter } from "../engine/routing";');
    expect(module).toMatch(/servingEngine\(\{[^}]*\}, \(\) => preparedRouter\(ROUTES\)\)/);
    expect(module).not.toContain("TrieRouter");
  });

  it("is the trie once one does (`/fixture-rooms/mine` beside `/fixture-rooms/{roomId}`)", async () => {
    const build = await prepareBuild(FIXTURE_TRIE_CONTRACT, {});
    expect(build.routing).toEqual({ kind: "trie" });
    const module = generatedModule(build);
    expect(module).toContain('import { TrieRouter } from "hono/router/trie-router";');
    expect(module).toMatch(/servingEngine\(\{[^}]*\}, \(\) => new TrieRouter\(\)\)/);
    expect(module).not.toContain("preparedRouter");
  });

  it("is none without an engine", async () => {
    const build = await prepareBuild(defineContract({}), {});
    expect(build.routing).toBeUndefined();
  });

  for (const [name, contract] of [
    ["prepared", FIXTURE_PREPARED_CONTRACT],
    ["trie", FIXTURE_TRIE_CONTRACT],
  ] as const)
    it(`routes as Hono's default pair does (${name}): status, Allow, body and path parameters`, async () => {
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const { routing } = await prepareBuild(contract, echoing(contract) as never);
      expect(routing?.kind).toBe(name);
      const [chosen, pair] = [await answers(contract, routing), await answers(contract, undefined)];
      expect(chosen).toEqual(pair);
      // The parameters reached the handler, through the chosen router.
      expect(chosen).toContainEqual(expect.stringContaining('"roomId":"fx-1","doorId":"fx-9"'));
      expect(chosen).toContainEqual(expect.stringContaining('"params":{"name":"fx-3"}'));
      // A method no route names is refused with the methods the path answers, not a 500.
      expect(chosen).toContainEqual(
        expect.stringMatching(/^FIXTURE-METHOD \/fixture-rooms 405 GET, HEAD, OPTIONS /),
      );
      // Every route was one the build prepared: the default pair never stood in.
      expect(errors).not.toHaveBeenCalled();
    });
});

describe("preparedRouter (src/engine/routing.ts)", () => {
  it("routes a route the build did not prepare with the trie, and says so once", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const router = preparedRouter<string>(buildInitParams({ paths: ["/fixture-a/:id"] }));
    router.add("GET", "/fixture-a/:id", "a");
    router.add("GET", "/fixture-b", "b");
    router.add("GET", "/fixture-c", "c");
    const [[first]] = router.match("GET", "/fixture-a/fx-1") as [[[string, object]]];
    expect(first[0]).toBe("a");
    expect(router.match("GET", "/fixture-c")[0].map(([[handler]]) => handler)).toEqual(["c"]);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]?.[0])).toContain("GET /fixture-b");
  });
});
