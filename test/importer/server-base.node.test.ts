/**
 * The path the document's servers put in front of every path (src/importer/server-base.ts),
 * imported from FIXTURE documents and served by the real app.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { compareDocuments } from "../../src/importer/compare/index";
import { doc31, findingLines, importCase, type Json } from "../support/import-case";

describe("the servers' path (OpenAPI 3.1 §4.8.5: a server's URL, then the path)", () => {
  const thing = {
    get: { operationId: "fixtureThings", responses: { "204": { description: "FIXTURE" } } },
  };

  it("is served in front of every path, and each server is written without it: the same URLs", async () => {
    const c = await importCase(
      "server-base",
      doc31({
        servers: [
          { url: "https://api.fixture.test/v3/" },
          { url: "https://sandbox.fixture.test/v3" },
        ],
        paths: { "/fixture-things": thing },
      }),
    );
    expect((await c.app.request("https://fixture.test/v3/fixture-things")).status).toBe(501);
    expect((await c.app.request("https://fixture.test/fixture-things")).status).toBe(404);
    const doc = (await c.served()) as { servers: unknown; paths: Record<string, unknown> };
    expect(doc.servers).toEqual([
      { url: "https://api.fixture.test" },
      { url: "https://sandbox.fixture.test" },
    ]);
    // The platform's own paths stay at the origin, where the Worker serves them.
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith("/_service/"))).toEqual([
      "/v3/fixture-things",
    ]);
    expect(findingLines(c).join("\n")).toContain(
      "changed #/servers: the servers' path /v3 is written in front of every path",
    );
    // Every operation and server counts as carried: the URLs are the document's.
    const comparison = compareDocuments(c.source, "3.1", doc as Json);
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
  });

  it("is not moved when the servers' paths differ or hold a variable, and the finding says so", async () => {
    for (const [name, servers, said] of [
      [
        "server-bases",
        [{ url: "https://a.fixture.test/v1" }, { url: "/v2" }],
        "the servers' paths differ (/v1, /v2)",
      ],
      [
        "server-variable",
        [{ url: "https://fixture.test/{base}", variables: { base: { default: "v1" } } }],
        "the servers' path /{base} is not a fixed path",
      ],
    ] as const) {
      const c = await importCase(name, doc31({ servers, paths: { "/fixture-things": thing } }));
      expect((await c.app.request("https://fixture.test/fixture-things")).status).toBe(501);
      expect(findingLines(c).join("\n")).toContain(`changed #/servers: ${said}`);
    }
  });
});
