/**
 * What an import leaves out rather than stop (src/importer/leave-out.ts): the cause of a
 * failure in one line, and everything that reaches a component left out, through `$ref`s
 * of any kind, cycles included.
 */
import { describe, expect, it } from "vitest";
import { causeOf, LeaveOut, reachingLeftOut, Units } from "../../src/importer/leave-out";

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
