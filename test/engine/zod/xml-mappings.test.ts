/**
 * The XML mappings the Worker makes from the JSON Schemas the build made (OpenAPI 3.1
 * §4.8.26's `xml` objects): each operation finds its own by where it declares each XML
 * media type, so a request builds no other operation's schemas, a part 9 variant's answer
 * is written by the variant's schema, and one schema two operations share is converted once.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { prepareBuild, servedFeatures } from "../../../src/build/generate";
import { defineContract } from "../../../src/contract-language/define-contract";
import { defineHandlers } from "../../../src/contract-language/define-handlers";
import { type ServeOptions, serveApp } from "../../../src/serve-app";

/** A FIXTURE contract: two operations share an XML answer; one answers another in v1. */
function fixtureXmlContract() {
  const built: string[] = [];
  const xmlAnswer = (root: string) => () => {
    built.push(root);
    return z.object({ id: z.string() }).check(z.meta({ xml: { name: root } }));
  };
  const shared = xmlAnswer("fixtureShared");
  const answers = (declared: () => z.ZodMiniObject) => ({
    200: { description: "FIXTURE", content: { "application/xml": declared } },
  });
  const contract = defineContract({
    versioning: {
      current: "v2",
      versions: { v1: {}, v2: {} },
      placement: { in: "header", name: "Fixture-Version" },
    },
    operations: {
      fixtureFirst: { method: "GET", path: "/fixture-first", responses: answers(shared) },
      fixtureSecond: {
        method: "GET",
        path: "/fixture-second",
        responses: answers(xmlAnswer("fixtureCurrent")),
        variants: [{ versions: { removed: "v2" }, responses: answers(xmlAnswer("fixtureOld")) }],
      },
      fixtureThird: { method: "GET", path: "/fixture-third", responses: answers(shared) },
    },
  });
  const answer = { status: 200 as const, body: { id: "x1" } };
  const handlers = defineHandlers(contract, {
    fixtureFirst: () => answer,
    fixtureSecond: () => answer,
    fixtureThird: () => answer,
  });
  return { contract, handlers, built };
}

describe("XML mappings found by where each operation declares them", () => {
  it("write each answer by its own schema, the variant's in its version, building no other operation's", async () => {
    const { needed, built: documents } = await prepareBuild(fixtureXmlContract().contract, {});
    // The shared answer is one JSON Schema, declared at two places.
    expect(documents.xmlSchemas.map((s) => s.at.length)).toEqual([2, 1, 1]);
    const fresh = fixtureXmlContract();
    // The parts the build chose, as test/support/built-app.ts serves them.
    const options = { built: documents, ...servedFeatures(needed), handlers: fresh.handlers };
    const app = serveApp(fresh.contract, options as ServeOptions<typeof fresh.contract>);
    const get = async (path: string, version: string) => {
      const res = await app.request(path, { headers: { "fixture-version": version } }, env);
      expect(res.status).toBe(200);
      return res.text();
    };
    expect(await get("/fixture-second", "v1")).toContain("<fixtureOld>");
    // An answer's schema is built when an answer is written by it: the variant's, and no
    // other operation's (its current declaration's answer waits for a v2 answer).
    expect([...fresh.built].sort()).toEqual(["fixtureOld"]);
    expect(await get("/fixture-second", "v2")).toContain("<fixtureCurrent>");
    expect([...fresh.built].sort()).toEqual(["fixtureCurrent", "fixtureOld"]);
    expect(await get("/fixture-third", "v2")).toContain("<fixtureShared>");
    expect(await get("/fixture-first", "v2")).toContain("<fixtureShared>");
    expect([...fresh.built].sort()).toEqual(["fixtureCurrent", "fixtureOld", "fixtureShared"]);
  });
});
