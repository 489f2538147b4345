/**
 * What an import leaves out rather than stop (src/importer/leave-out.ts): the cause of a
 * failure in one line, and everything that reaches a component left out, through `$ref`s
 * of any kind, cycles included; then whole FIXTURE documents imported and served by the real
 * app, each with what it leaves out and the rest imported.
 */
import { describe, expect, it } from "vitest";
import { causeOf, LeaveOut, reachingLeftOut, Units } from "../../src/importer/leave-out";
import { doc31, findingLines, importCase, type Json } from "../support/import-case";

describe("a unit of the import", () => {
  it("that throws is kept with its cause, never passed on", () => {
    const units = new Units();
    expect(
      units.convert("#/paths/~1a/get", () => {
        throw new TypeError("x is not a function\nat somewhere");
      }),
    ).toBeUndefined();
    expect(units.convert("#/paths/~1b/get", () => 1)).toBe(1);
    expect(
      units.convert("#/paths/~1c/get", () => {
        throw new LeaveOut("it cannot be served open");
      }),
    ).toBeUndefined();
    expect([...units.failed]).toEqual([
      ["#/paths/~1a/get", "the importer could not convert it (x is not a function)"],
      ["#/paths/~1c/get", "it cannot be served open"],
    ]);
  });

  it("has a cause that is never empty, and says when it nests too deep", () => {
    expect(causeOf(new Error(""))).toBe("Error without a message");
    expect(causeOf(new RangeError("Maximum call stack size exceeded"))).toBe(
      "it nests deeper than the importer can follow (Maximum call stack size exceeded)",
    );
  });
});

describe("what reaches a component left out", () => {
  const document = {
    paths: {
      "/direct": { get: { requestBody: { $ref: "#/components/requestBodies/Direct" } } },
      "/through-cycle": {
        parameters: [{ $ref: "#/components/parameters/ByCycle" }],
        post: { responses: {} },
      },
      "/untouched": { get: { responses: { "200": { $ref: "#/components/responses/Fine" } } } },
      "/in-an-example": {
        get: { responses: { "200": { content: { "a/b": { example: { $ref: "#/x" } } } } } },
      },
    },
    webhooks: {
      fixtureEvent: { post: { requestBody: { $ref: "#/components/requestBodies/Direct" } } },
    },
    components: {
      schemas: {
        Gone: { type: "string" },
        // A cycle: A and B refer to each other, and B to what is gone.
        A: { properties: { b: { $ref: "#/components/schemas/B" } } },
        B: {
          properties: {
            a: { $ref: "#/components/schemas/A" },
            g: { $ref: "#/components/schemas/Gone/items" },
          },
        },
        Fine: { type: "integer" },
      },
      requestBodies: {
        Direct: { content: { "a/b": { schema: { $ref: "#/components/schemas/Gone" } } } },
      },
      parameters: {
        ByCycle: { name: "p", in: "query", schema: { $ref: "#/components/schemas/A" } },
      },
      responses: {
        Fine: { content: { "a/b": { schema: { $ref: "#/components/schemas/Fine" } } } },
      },
    },
  };

  it("is every operation, webhook and component that uses it, by any path of $refs, and nothing else", () => {
    const found = reachingLeftOut(
      document,
      new Map([["#/components/schemas/Gone", "the importer could not convert it (x)"]]),
    );
    expect([...found.keys()].sort()).toEqual([
      "#/components/schemas/A",
      "#/components/schemas/B",
      "#/paths/~1direct/get",
      "#/paths/~1through-cycle/post",
      "#/webhooks/fixtureEvent/post",
    ]);
    expect(found.get("#/paths/~1through-cycle/post")).toBe(
      "it uses #/components/schemas/Gone, which is left out (the importer could not convert it (x))",
    );
  });

  it("is nothing when no component is left out", () => {
    expect(reachingLeftOut(document, new Map([["#/paths/~1direct/get", "x"]])).size).toBe(0);
  });
});

describe("what an import leaves out, each with a finding at its pointer, never stopping the rest", () => {
  const ok = { "204": { description: "FIXTURE done." } };

  it("a path key whose query is not name=value pairs: it does not say which requests are its (OpenAPI 3.1 §4.8.8), so neither it nor its operations", async () => {
    const c = await importCase(
      "query-key",
      doc31({
        paths: {
          "/fixture-things?beta=1&beta=2": {
            get: { operationId: "fixtureBetaThings", responses: ok },
            post: { operationId: "fixtureBetaCreate", responses: ok },
          },
          "/fixture-things": { get: { operationId: "fixtureThings", responses: ok } },
        },
      }),
    );
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureThings"]);
    expect(findingLines(c)).toContainEqual(
      "lost #/paths/~1fixture-things?beta=1&beta=2: left out: the key's query (?beta=1&beta=2) is not name=value pairs, each name once, so it does not say which requests are this path's (OpenAPI 3.1 §4.8.8, Paths Object; RFC 3986 §3.4): the path is not served, nor its operations (GET, POST)",
    );
    expect(c.result.parts.get("endpoints")?.summary).toBe("1 operation on 1 path");
  });

  it("an operation the importer cannot convert (a cycle of $refs among parameters), with the cause", async () => {
    const c = await importCase(
      "ref-cycle",
      doc31({
        paths: {
          "/fixture-loop": {
            get: {
              operationId: "fixtureLoop",
              parameters: [{ $ref: "#/components/parameters/FixtureA" }],
              responses: ok,
            },
          },
          "/fixture-fine": { get: { operationId: "fixtureFine", responses: ok } },
        },
        components: {
          parameters: {
            FixtureA: { $ref: "#/components/parameters/FixtureB" },
            FixtureB: { $ref: "#/components/parameters/FixtureA" },
          },
        },
      }),
    );
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureFine"]);
    expect(findingLines(c)).toContain(
      "lost #/paths/~1fixture-loop/get: left out: the importer could not convert it (#/paths/~1fixture-loop/get/parameters/0: a cycle of $refs)",
    );
    expect((await c.app.request("https://fixture.test/fixture-fine")).status).toBe(501);
  });

  it("a component the importer cannot convert (nested deeper than it follows), then each component and operation that uses it", async () => {
    let deep: Json = { type: "string" };
    for (let i = 0; i < 700; i++) deep = { type: "object", properties: { inner: deep } };
    const json = (name: string) => ({
      content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
    });
    const c = await importCase(
      "too-deep",
      doc31({
        paths: {
          "/fixture-deep": {
            post: { operationId: "fixtureDeep", requestBody: json("FixtureNested"), responses: ok },
          },
          "/fixture-flat": {
            get: {
              operationId: "fixtureFlat",
              responses: { "200": { description: "FIXTURE", ...json("FixtureFlat") } },
            },
          },
        },
        components: {
          schemas: {
            FixtureDeep: deep,
            FixtureNested: {
              type: "object",
              properties: { deep: { $ref: "#/components/schemas/FixtureDeep" } },
            },
            FixtureFlat: { type: "string" },
          },
        },
      }),
    );
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureFlat"]);
    expect(Object.keys(c.contract.resources)).toEqual(["FixtureFlat"]);
    const gone =
      "left out: it uses #/components/schemas/FixtureDeep, which is left out (it nests deeper than the importer can follow (Maximum call stack size exceeded))";
    expect(findingLines(c)).toEqual(
      expect.arrayContaining([
        "lost #/components/schemas/FixtureDeep: left out: it nests deeper than the importer can follow (Maximum call stack size exceeded)",
        `lost #/components/schemas/FixtureNested: ${gone}`,
        `lost #/paths/~1fixture-deep/post: ${gone}`,
      ]),
    );
  });
});
