/**
 * Part 9 served, inside workerd with the FIXTURE versions contract: each placement of the
 * version (header, query, media-type parameter), a missing, unknown and sunset version, an
 * operation outside its versions, the Deprecation (RFC 9745 §2), Sunset (RFC 8594 §3) and
 * Link headers' exact syntax, the start-up checks (the ordering rule among them), the
 * resolved version handed to handlers, and one OpenAPI document per version.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import type { Contract, VersionPlacement } from "../../../src/contract-language/contract";
import {
  FIXTURE_VERSIONS,
  FIXTURE_VERSIONS_CONTRACT,
  FIXTURE_VERSIONS_HANDLERS,
  fixtureVersionsContract,
} from "../../fixtures/versions";

const build = (contract: Contract) =>
  createApp(contract, {
    engine: BUILD_ENGINE,
    handlers: FIXTURE_VERSIONS_HANDLERS,
    jsonSchema: z.toJSONSchema,
  } as never);

function call(placement: VersionPlacement, required = false) {
  const app = build(fixtureVersionsContract(placement, required));
  return (path: string, headers: Record<string, string> = {}) =>
    app.request(`https://fixture.test${path}`, { headers }, env);
}

const byHeader = call({ in: "header", name: "Api-Version" });

describe("the version a request asks for", () => {
  it("is read from a header, a query parameter or a media-type parameter, and handed to the handler", async () => {
    expect(await (await byHeader("/fixture-things", { "api-version": "v1" })).json()).toEqual({
      version: "v1",
    });
    const byQuery = call({ in: "query", name: "api-version" });
    expect(await (await byQuery("/fixture-things?api-version=v1")).json()).toEqual({
      version: "v1",
    });
    const byMediaType = call({ in: "media-type", parameter: "version" });
    const answered = await byMediaType("/fixture-things", {
      accept: "application/json; version=v1",
    });
    expect(await answered.json()).toEqual({ version: "v1" });
  });

  it("is the current one when the request states none, or a 400 when the contract requires one", async () => {
    expect(await (await byHeader("/fixture-things")).json()).toEqual({ version: "v2" });
    const strict = call({ in: "header", name: "Api-Version" }, true);
    const refused = await strict("/fixture-things");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      type: "/_service/problems/unsupported-version",
      supportedVersions: ["v1", "v2"],
    });
  });

  it("is refused with 400 and the supported versions when unknown, without echoing what was sent", async () => {
    const answer = await byHeader("/fixture-things", { "api-version": "v9-marker-3f1a" });
    expect(answer.status).toBe(400);
    const text = await answer.text();
    expect(JSON.parse(text)).toMatchObject({ supportedVersions: ["v1", "v2"] });
    expect(text).not.toContain("marker-3f1a");
    // A name an object has by inheritance is no version either.
    expect((await byHeader("/fixture-things", { "api-version": "constructor" })).status).toBe(400);
  });

  it("is 410 Gone past its sunset", async () => {
    const answer = await byHeader("/fixture-things", { "api-version": "v0" });
    expect(answer.status).toBe(410);
    expect(await answer.json()).toMatchObject({
      type: "/_service/problems/version-gone",
      version: "v0",
      supportedVersions: ["v1", "v2"],
    });
  });

  it("gets a 404 naming the versions that have an operation it does not have", async () => {
    const answer = await byHeader("/fixture-things/new", { "api-version": "v1" });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({
      type: "/_service/problems/not-in-version",
      operationId: "fixtureNewThing",
      availableIn: ["v2"],
    });
    expect((await byHeader("/fixture-things/old")).status).toBe(404);
    expect((await byHeader("/fixture-things/old", { "api-version": "v1" })).status).toBe(200);
  });
});

describe("the version in the path (the first segment)", () => {
  const byPath = call({ in: "path" });

  it("routes each operation under each version, and hands the version over, not as a path parameter", async () => {
    expect(await (await byPath("/v1/fixture-things")).json()).toEqual({ version: "v1" });
    expect(await (await byPath("/v2/fixture-things/new")).json()).toEqual({ version: "v2" });
    // params and query are strict objects: the version segment never reaches them.
    const byId = await byPath("/v1/fixture-things/thing-7?verbose=yes");
    expect(byId.status).toBe(200);
    expect(await byId.json()).toEqual({ version: "v1" });
  });

  it("refuses an unknown version with 400, a sunset one with 410, one without the operation with 404", async () => {
    const unknown = await byPath("/v9-marker-77c1/fixture-things");
    expect(unknown.status).toBe(400);
    const text = await unknown.text();
    expect(JSON.parse(text)).toMatchObject({ supportedVersions: ["v1", "v2"] });
    expect(text).not.toContain("marker-77c1");
    expect((await byPath("/v0/fixture-things")).status).toBe(410);
    expect(await (await byPath("/v1/fixture-things/new")).json()).toMatchObject({
      type: "/_service/problems/not-in-version",
      availableIn: ["v2"],
    });
  });

  it("serves no operation at a path without a version (a version is always stated)", async () => {
    expect((await byPath("/fixture-things")).status).toBe(404);
  });

  it("documents each version's paths with the version in them", async () => {
    const app = build(fixtureVersionsContract({ in: "path" }));
    const doc = (await (
      await app.request("/_service/openapi.json?version=v1", {}, env)
    ).json()) as { paths: Record<string, unknown> };
    const paths = Object.keys(doc.paths).filter((p) => !p.startsWith("/_service"));
    expect(paths).toContain("/v1/fixture-things");
    expect(paths).toContain("/v1/fixture-things/old");
    expect(paths.every((p) => p.startsWith("/v1/"))).toBe(true);
  });
});

describe("a version's own request and responses (variants)", () => {
  const post = (body: unknown, version?: string) =>
    build(FIXTURE_VERSIONS_CONTRACT).request(
      "https://fixture.test/fixture-things",
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(version ? { "api-version": version } : {}),
        },
        body: JSON.stringify(body),
      },
      env,
    );

  it("validate each version's request against its own schema", async () => {
    expect((await post({ name: "FIXTURE" }, "v1")).status).toBe(201);
    expect((await post({ title: "FIXTURE" }, "v1")).status).toBe(422);
    expect((await post({ title: "FIXTURE" }, "v2")).status).toBe(201);
    expect((await post({ name: "FIXTURE" })).status).toBe(422);
  });

  it("check each version's answer against its own responses", async () => {
    const v1 = await post({ name: "FIXTURE" }, "v1");
    expect(await v1.json()).toEqual({ name: "FIXTURE" });
  });

  it("are documented in that version's OpenAPI document only", async () => {
    const app = build(FIXTURE_VERSIONS_CONTRACT);
    const schemaFor = async (version: string) => {
      const doc = (await (
        await app.request(`/_service/openapi.json?version=${version}`, {}, env)
      ).json()) as {
        paths: Record<
          string,
          { post: { requestBody: { content: Record<string, { schema: unknown }> } } }
        >;
      };
      return JSON.stringify(doc.paths["/fixture-things"]?.post.requestBody.content);
    };
    expect(await schemaFor("v1")).toContain('"name"');
    expect(await schemaFor("v1")).not.toContain('"title"');
    expect(await schemaFor("v2")).toContain('"title"');
    expect(await schemaFor("v2")).not.toContain('"name"');
  });
});

describe("an operation deprecated on its own, with dates", () => {
  it("answers with Deprecation, Sunset and Link (RFC 9745 §2, RFC 8594 §3), and is deprecated in OpenAPI", async () => {
    const answer = await byHeader("/fixture-retiring");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("deprecation")).toBe("@1717200000");
    expect(answer.headers.get("sunset")).toBe("Wed, 01 Jan 2031 00:00:00 GMT");
    expect(answer.headers.get("link")).toBe(
      '<https://docs.fixture.test/retiring>; rel="deprecation"; type="text/html", <https://docs.fixture.test/retiring>; rel="sunset"; type="text/html"',
    );
    const doc = (await (
      await build(FIXTURE_VERSIONS_CONTRACT).request("/_service/openapi.json", {}, env)
    ).json()) as {
      paths: Record<
        string,
        {
          get: {
            deprecated?: boolean;
            responses: Record<string, { headers?: Record<string, { example?: string }> }>;
          };
        }
      >;
    };
    const get = doc.paths["/fixture-retiring"]?.get;
    expect(get?.deprecated).toBe(true);
    expect(get?.responses["200"]?.headers?.Deprecation?.example).toBe("@1717200000");
  });

  it("under a deprecated version too: deprecated since the earlier date, sunset at the earlier one, both notes linked", async () => {
    const answer = await byHeader("/fixture-retiring", { "api-version": "v1" });
    expect(answer.headers.get("deprecation")).toBe("@1717200000");
    expect(answer.headers.get("sunset")).toBe("Tue, 01 Jan 2030 00:00:00 GMT");
    expect(answer.headers.get("link")).toBe(
      [
        '<https://docs.fixture.test/migrate-to-v2>; rel="deprecation"; type="text/html"',
        '<https://docs.fixture.test/migrate-to-v2>; rel="sunset"; type="text/html"',
        '<https://docs.fixture.test/retiring>; rel="deprecation"; type="text/html"',
        '<https://docs.fixture.test/retiring>; rel="sunset"; type="text/html"',
      ].join(", "),
    );
  });

  it("is 410 Gone past its own sunset, in every version", async () => {
    for (const version of ["v1", "v2"]) {
      const answer = await byHeader("/fixture-retired", { "api-version": version });
      expect(answer.status).toBe(410);
      expect(await answer.json()).toMatchObject({
        type: "/_service/problems/operation-gone",
        operationId: "fixtureRetiredThing",
      });
      expect(answer.headers.get("sunset")).toBe("Wed, 01 Jan 2020 00:00:00 GMT");
    }
  });
});

describe("answers under a deprecated version", () => {
  it("carry Deprecation (RFC 9745 §2), Sunset (RFC 8594 §3) and Link rel=deprecation and rel=sunset, exactly", async () => {
    const answer = await byHeader("/fixture-things", { "api-version": "v1" });
    expect(answer.headers.get("deprecation")).toBe("@1735689600");
    expect(answer.headers.get("sunset")).toBe("Tue, 01 Jan 2030 00:00:00 GMT");
    expect(answer.headers.get("link")).toBe(
      '<https://docs.fixture.test/migrate-to-v2>; rel="deprecation"; type="text/html", <https://docs.fixture.test/migrate-to-v2>; rel="sunset"; type="text/html"',
    );
    // The structured-field date is an integer of seconds (RFC 9651 §3.3.7).
    expect(answer.headers.get("deprecation")).toMatch(/^@-?\d+$/);
  });

  it("and no other answer does", async () => {
    const current = await byHeader("/fixture-things", { "api-version": "v2" });
    for (const name of ["deprecation", "sunset", "link"])
      expect(current.headers.get(name)).toBeNull();
  });
});

describe("part 9 is refused at start-up", () => {
  const withVersions = (versions: Record<string, object>, extra: object = {}): Contract => ({
    ...FIXTURE_VERSIONS_CONTRACT,
    versioning: {
      current: "v2",
      versions,
      placement: { in: "header", name: "Api-Version" },
      ...extra,
    },
    operations: {},
  });
  const start = (contract: Contract) => () =>
    createApp(contract, { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema });

  it("when a sunset is earlier than its deprecation (RFC 8594 §3), or has none", () => {
    expect(start(withVersions({ v2: { deprecated: "2026-01-02", sunset: "2026-01-01" } }))).toThrow(
      /sunset is earlier than its deprecation/,
    );
    expect(start(withVersions({ v2: { sunset: "2026-01-01" } }))).toThrow(
      /needs a deprecation date/,
    );
  });
  it("when a date is not ISO 8601, a migration link not an absolute URL, or current not a version", () => {
    expect(start(withVersions({ v2: { deprecated: "soon" } }))).toThrow(/not an ISO 8601 date/);
    expect(start(withVersions({ v2: { migration: "/notes" } }))).toThrow(/not an absolute URL/);
    expect(start(withVersions({ v1: {} }))).toThrow(
      /current version v2 is not one of its versions/,
    );
  });
  it("when versions are declared but not where a client states one", () => {
    expect(start(withVersions({ v2: {} }, { placement: undefined }))).toThrow(/placement/);
  });
  it("when an operation's range names an undeclared version, or ends before it starts", () => {
    const op = FIXTURE_VERSIONS_CONTRACT.operations.fixtureEveryVersion;
    const ranged = (versions: { added?: string; removed?: string }): Contract => ({
      ...FIXTURE_VERSIONS_CONTRACT,
      operations: { fixtureEveryVersion: { ...op, versions } },
    });
    expect(start(ranged({ added: "v7" }))).toThrow(/version v7 is not declared in part 9/);
    expect(start(ranged({ added: "v2", removed: "v1" }))).toThrow(/removed in v1, not after/);
  });
  it("when variants overlap, fall outside the operation's versions, or versions are not negotiated", () => {
    const op = FIXTURE_VERSIONS_CONTRACT.operations.fixtureEveryVersion;
    const varied = (variants: object[], extra: object = {}): Contract => ({
      ...FIXTURE_VERSIONS_CONTRACT,
      operations: { fixtureEveryVersion: { ...op, ...extra, variants } as never },
    });
    expect(start(varied([{ versions: { removed: "v2" } }, { versions: { added: "v1" } }]))).toThrow(
      /version v1 is in variant 0 too/,
    );
    expect(start(varied([{ versions: { removed: "v2" } }], { versions: { added: "v1" } }))).toThrow(
      /version v0 does not have the operation/,
    );
    expect(start(varied([{ versions: { added: "v8" } }]))).toThrow(/v8 is not declared/);
    expect(start({ ...varied([{ versions: {} }]), versioning: { current: "v2" } })).toThrow(
      /declares versions, but part 9 declares none/,
    );
  });
  it("when a variant's params disagree with the path", () => {
    const op = FIXTURE_VERSIONS_CONTRACT.operations.fixtureGetThing;
    const contract: Contract = {
      ...FIXTURE_VERSIONS_CONTRACT,
      operations: {
        fixtureGetThing: {
          ...op,
          variants: [
            { versions: { removed: "v2" }, request: { params: z.object({ id: z.string() }) } },
          ],
        },
      },
    };
    expect(start(contract)).toThrow(/fixtureGetThing \(variant 0\).*must be the same/);
  });
  it("when a version cannot be a path segment, with the version in the path", () => {
    expect(start(withVersions({ "v 2": {}, v2: {} }, { placement: { in: "path" } }))).toThrow(
      /cannot be a path segment/,
    );
  });
  it("when an operation's own deprecation has no date, or a sunset before it", () => {
    const op = FIXTURE_VERSIONS_CONTRACT.operations.fixtureEveryVersion;
    const retired = (deprecated: object): Contract => ({
      ...FIXTURE_VERSIONS_CONTRACT,
      operations: { fixtureEveryVersion: { ...op, deprecated } },
    });
    expect(start(retired({ sunset: "2030-01-01" }))).toThrow(/needs a date/);
    expect(start(retired({ deprecated: "2030-01-02", sunset: "2030-01-01" }))).toThrow(
      /fixtureEveryVersion: its sunset is earlier/,
    );
  });
  it("and the FIXTURE as declared starts", () => {
    expect(start(FIXTURE_VERSIONS_CONTRACT)).not.toThrow();
    expect(Object.keys(FIXTURE_VERSIONS)).toEqual(["v0", "v1", "v2"]);
  });
});

describe("the documents", () => {
  const app = build(FIXTURE_VERSIONS_CONTRACT);
  const doc = async (query = "") =>
    (await (await app.request(`/_service/openapi.json${query}`, {}, env)).json()) as {
      info: { version: string };
      paths: Record<string, { get?: { deprecated?: boolean } }>;
    };

  it("OpenAPI per version: the current one by default, each with only its operations, a deprecated one's marked so", async () => {
    const current = await doc();
    expect(current.info.version).toBe("v2");
    expect(Object.keys(current.paths).filter((p) => p.startsWith("/fixture-things"))).toEqual([
      "/fixture-things",
      "/fixture-things/new",
      "/fixture-things/{thingId}",
    ]);
    const v1 = await doc("?version=v1");
    expect(v1.info.version).toBe("v1");
    expect(Object.keys(v1.paths).filter((p) => p.startsWith("/fixture-things"))).toEqual([
      "/fixture-things",
      "/fixture-things/old",
      "/fixture-things/{thingId}",
    ]);
    expect(v1.paths["/fixture-things"]?.get?.deprecated).toBe(true);
    expect(current.paths["/fixture-things"]?.get?.deprecated).toBeUndefined();
    const none = await app.request("/_service/openapi.json?version=v9-marker", {}, env);
    expect(none.status).toBe(404);
    expect(await none.text()).not.toContain("v9-marker");
  });

  it("OpenAPI per version lists only that version's schemas: not a resource only other versions' operations use", async () => {
    const schemasOf = async (query: string) =>
      Object.keys(
        (
          (await (await app.request(`/_service/openapi.json${query}`, {}, env)).json()) as {
            components: { schemas: Record<string, unknown> };
          }
        ).components.schemas,
      );
    expect(await schemasOf("?version=v1")).toEqual(
      expect.arrayContaining(["FixtureLegacyThing", "FixtureNote"]),
    );
    const current = await schemasOf("");
    expect(current).toContain("FixtureNote");
    expect(current).not.toContain("FixtureLegacyThing");
  });

  it("the status report lists the versions with their dates", async () => {
    const report = (await (await app.request("/_service/interface", {}, env)).json()) as {
      versions: unknown[];
    };
    expect(report.versions).toEqual([
      { version: "v0", current: false, ...FIXTURE_VERSIONS.v0 },
      { version: "v1", current: false, ...FIXTURE_VERSIONS.v1 },
      { version: "v2", current: true },
    ]);
  });
});
