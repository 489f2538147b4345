/**
 * The documenter's schema components (src/engine/openapi/schemas.ts): each schema is handed
 * to zod's converter with the other named schemas cut off (src/engine/openapi/cut.ts), so a
 * document's conversion grows with its schemas, not with the schemas times all they reach,
 * and what is written is what zod writes of the whole schema. Fixtures only.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { defineContract } from "../../../src/contract-language/define-contract";
import { component, resolveSchema } from "../../../src/contract-language/lazy";
import { schemaComponents } from "../../../src/engine/openapi/schemas";
import { reachableSchemas } from "../../../src/engine/zod/views";
import type { JsonSchemaConverter } from "../../../src/platform/openapi/document";

const REF = "#/components/schemas/";

/** zod's converter, counting the nodes each schema handed to it reaches. */
function countingConverter(): { convert: JsonSchemaConverter; reached: number[] } {
  const reached: number[] = [];
  const convert: JsonSchemaConverter = (schema, params) => {
    reached.push(reachableSchemas([schema]).size);
    return z.toJSONSchema(schema, params as never) as Record<string, unknown>;
  };
  return { convert, reached };
}

/** FIXTURE resources, each holding the next: FixtureLink0 reaches all `length` of them. */
function fixtureChain(length: number) {
  const links: (() => z.ZodMiniType)[] = [];
  for (let i = length - 1; i >= 0; i--) {
    const next = links[0];
    links.unshift(
      component(() =>
        z.object({ label: z.string(), ...(next ? { next: z.optional(next()) } : {}) }),
      ),
    );
  }
  return defineContract({
    resources: Object.fromEntries(links.map((link, i) => [`FixtureLink${i}`, link])),
  });
}

describe("schema components", () => {
  it("hands zod each schema without the named schemas it reaches, however long the chain", () => {
    const largest = (length: number) => {
      const { convert, reached } = countingConverter();
      const contract = fixtureChain(length);
      const { schemas, convert: document } = schemaComponents(contract, convert);
      const first = resolveSchema(contract.resources.FixtureLink0 as () => z.ZodMiniType);
      document(() => z.object({ first: z.array(first) }), "output");
      expect(Object.keys(schemas)).toHaveLength(length);
      return Math.max(...reached);
    };
    // Uncut, FixtureLink0's conversion reaches every link: 3 nodes a link.
    expect(largest(40)).toBe(largest(4));
  });

  it("writes each named schema it reaches as its $ref, and itself in full", () => {
    const { schemas } = schemaComponents(fixtureChain(3), z.toJSONSchema as never);
    expect(schemas.FixtureLink0).toEqual({
      type: "object",
      properties: { label: { type: "string" }, next: { $ref: `${REF}FixtureLink1` } },
      required: ["label"],
    });
    expect(schemas.FixtureLink2).toEqual({
      type: "object",
      properties: { label: { type: "string" } },
      required: ["label"],
    });
  });

  it("writes a named schema that refers to itself with its own $ref, once it was parsed too", () => {
    const FixtureNode = component(
      (): z.ZodMiniObject =>
        z.object({ children: z.array(z.lazy(() => FixtureNode())), name: z.string() }),
    );
    // Parsed first, as the build's checks may: zod then keeps the lazy's target on its def.
    expect(
      z.safeParse(FixtureNode(), { children: [{ children: [], name: "b" }], name: "a" }),
    ).toMatchObject({ success: true });
    const { schemas } = schemaComponents(
      defineContract({ resources: { FixtureNode } }),
      z.toJSONSchema as never,
    );
    expect(schemas.FixtureNode).toEqual({
      type: "object",
      properties: {
        children: { type: "array", items: { $ref: `${REF}FixtureNode` } },
        name: { type: "string" },
      },
      required: ["children", "name"],
    });
  });

  it("writes a use that only describes a named schema as its $ref and the description", () => {
    const FixtureBase = component(() => z.object({ id: z.string() }));
    const FixturePage = component(() =>
      z.intersection(FixtureBase(), z.object({ items: z.array(z.string()) })),
    );
    const FixtureHolder = component(() =>
      z.object({ page: FixturePage().check(z.meta({ description: "FIXTURE: one page." })) }),
    );
    const { schemas } = schemaComponents(
      defineContract({ resources: { FixtureBase, FixturePage, FixtureHolder } }),
      z.toJSONSchema as never,
    );
    // zod, given the whole graph, also repeated the page's `allOf` beside its $ref.
    expect(schemas.FixtureHolder).toEqual({
      type: "object",
      properties: { page: { $ref: `${REF}FixturePage`, description: "FIXTURE: one page." } },
      required: ["page"],
    });
  });

  it("keeps what zod reads through a named schema: optional, and transforming", () => {
    // zod drops `examples` above a transform in a request (it shows the output's values).
    const FixtureCode = component(() =>
      z.pipe(
        z.string(),
        z.transform((code: string) => code.toUpperCase()),
      ),
    );
    const FixtureMaybe = component(() => z.optional(z.string()));
    const contract = defineContract({ resources: { FixtureCode, FixtureMaybe } });
    const { convert } = schemaComponents(contract, z.toJSONSchema as never);
    const holder = () =>
      z
        .object({ code: FixtureCode(), maybe: FixtureMaybe() })
        .check(z.meta({ examples: [{ code: "fixture" }] }));
    expect(convert(holder, "input")).toEqual({
      type: "object",
      properties: { code: { $ref: `${REF}FixtureCode` }, maybe: { $ref: `${REF}FixtureMaybe` } },
      required: ["code"],
    });
  });
});
