/**
 * The served document as the conformance checker validates answers against it
 * (documented.ts): every schema found at its pointer, whatever the document names its
 * components.
 */
import { describe, expect, it } from "vitest";
import { documented } from "./documented";

describe("documented: the served document's schemas, each at its pointer", () => {
  it("finds a component named id, which the validator would read as its map's draft-4 id (PeerTube's schemas)", () => {
    const { check } = documented({
      openapi: "3.1.0",
      info: { title: "FIXTURE", version: "1" },
      paths: {},
      components: {
        schemas: {
          // FIXTURE: a schema named `id`, referenced by another, as PeerTube declares one.
          id: { type: "integer", minimum: 1 },
          FixtureVideo: {
            type: "object",
            required: ["id"],
            properties: { id: { $ref: "#/components/schemas/id" } },
          },
        },
        parameters: {
          id: { name: "id", in: "path", required: true, schema: { type: "string" } },
        },
      },
    });
    expect(check("#/components/schemas/FixtureVideo", { id: 3 })).toEqual([]);
    expect(check("#/components/schemas/FixtureVideo", { id: 0 })).not.toEqual([]);
    expect(check("#/components/schemas/id", "3")).not.toEqual([]);
    expect(check("#/components/parameters/id/schema", "w1")).toEqual([]);
  });
});
