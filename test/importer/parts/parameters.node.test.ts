/**
 * Part 4's parameters (src/importer/parts/parameters.ts), imported from FIXTURE documents and
 * served by the real app: every place, from components and the path item; an Accept-Language
 * enum; a parameter that is an API key's credential; every style, explode and allowReserved.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { resolveSchema, type Schema } from "../../../src/contract-language/contract";
import { objectShape } from "../../../src/engine/zod/shape";
import { compareDocuments } from "../../../src/importer/compare/index";
import {
  doc30,
  doc31,
  findingLines,
  getCase,
  type ImportedCase,
  importCase,
  served,
} from "../../support/import-case";

describe("parameters", () => {
  it("reads parameters of every place, from components and the path item, as text the spec types", async () => {
    const c = await importCase("parameters", {
      ...doc30({}),
      paths: {
        "/things/{thingId}": {
          parameters: [{ $ref: "#/components/parameters/ThingId" }],
          get: {
            operationId: "fixtureGet",
            parameters: [
              { name: "tags", in: "query", schema: { type: "array", items: { type: "integer" } } },
              { name: "exact", in: "query", schema: { type: "boolean" } },
              { name: "X-Fixture-Trace", in: "header", required: true, schema: { type: "string" } },
              { name: "session", in: "cookie", schema: { type: "string" } },
              { name: "Accept", in: "header", schema: { type: "string" } },
            ],
            responses: { "204": { description: "FIXTURE" } },
          },
        },
      },
      components: {
        parameters: {
          ThingId: {
            name: "thingId",
            in: "path",
            required: true,
            schema: { type: "integer", minimum: 1 },
          },
        },
      },
    });
    const get = (url: string, headers: Record<string, string> = { "x-fixture-trace": "t" }) =>
      c.app.request(`https://fixture.test${url}`, { headers });
    expect((await get("/things/7?tags=1&tags=2&exact=true")).status).toBe(501);
    expect((await get("/things/7?tags=5")).status).toBe(501);
    expect((await get("/things/0")).status).toBe(422);
    expect((await get("/things/x")).status).toBe(422);
    expect((await get("/things/7?tags=a")).status).toBe(422);
    expect((await get("/things/7?exact=yes")).status).toBe(422);
    expect((await get("/things/7", {})).status).toBe(422);
    expect(findingLines(c).join("\n")).toContain(
      "header Accept: OpenAPI says such a parameter is ignored",
    );
    const names = (await served(c)).paths["/things/{thingId}"]?.get?.parameters.map(
      (p) => `${p.in}:${p.name}`,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        "path:thingId",
        "query:tags",
        "query:exact",
        "header:x-fixture-trace",
        "cookie:session",
      ]),
    );
  });

  it("reads an Accept-Language parameter with an enum (EVE's) as any list a client sends (RFC 9110 §12.5.4), its values kept as examples", async () => {
    const c = await importCase(
      "accept-language",
      getCase("/fixture", [
        {
          name: "Accept-Language",
          in: "header",
          schema: { type: "string", enum: ["de", "en-us"], default: "en-us" },
        },
      ]),
    );
    for (const sent of ["en-US,en;q=0.9", "*", "de"]) {
      const res = await c.app.request("https://fixture.test/fixture", {
        headers: { "accept-language": sent },
      });
      expect(res.status).toBe(501);
    }
    expect(findingLines(c).join("\n")).toContain(
      "enum of the Accept-Language header: a weighted list that clients send on their own (RFC 9110 §12.5)",
    );
    const parameter = (await served(c)).paths["/fixture"]?.get?.parameters.find(
      (p) => p.name === "accept-language",
    );
    // Served as the parameter's example, its schema a string any list satisfies.
    expect(parameter).toMatchObject({ example: "de", schema: { type: "string" } });
    expect(parameter?.schema).not.toHaveProperty("enum");
  });

  it("reads a parameter that is also where an API key goes as that credential (Trello declares its key so), not as a parameter no request could give", async () => {
    const c = await importCase(
      "key-parameter",
      getCase(
        "/fixture",
        [
          { name: "key", in: "query", required: true, schema: { type: "string" } },
          { name: "fields", in: "query", schema: { type: "string" } },
        ],
        {
          security: [{ fixtureKey: [] }],
          components: {
            securitySchemes: { fixtureKey: { type: "apiKey", in: "query", name: "key" } },
          },
        },
      ),
    );
    expect(findingLines(c)).toContain(
      "changed #/paths/~1fixture/get/parameters/0: query parameter key: the credential of security scheme fixtureKey, read as that credential and kept from the operation's input",
    );
    const query = resolveSchema(c.contract.operations.fixtureGet?.request?.query);
    expect(Object.keys(objectShape(query as Schema) ?? {})).toEqual(["fields"]);
    // Without a key: challenged for it (401), never a 400 for a parameter it cannot send.
    expect((await c.app.request("https://fixture.test/fixture")).status).toBe(401);
  });
});

describe("parameter styles (OpenAPI 3.1 §4.8.12.4)", () => {
  /** A parameter of every style, in each location, each with OpenAPI's Style Examples' shape. */
  const stylesDocument = doc31({
    paths: {
      "/fixture-styles/{color}/{ids}/{rgb}": {
        get: {
          operationId: "fixtureStyles",
          parameters: [
            {
              name: "color",
              in: "path",
              required: true,
              style: "label",
              explode: false,
              schema: { type: "string", enum: ["blue", "black", "brown"] },
            },
            {
              name: "ids",
              in: "path",
              required: true,
              style: "matrix",
              explode: true,
              schema: { type: "array", items: { type: "integer" } },
            },
            {
              name: "rgb",
              in: "path",
              required: true,
              style: "simple",
              explode: true,
              schema: { $ref: "#/components/schemas/Rgb" },
            },
            {
              name: "metrics",
              in: "query",
              required: true,
              style: "form",
              explode: false,
              description: "Accepts a comma-separated value.",
              schema: { type: "array", items: { type: "string", enum: ["opened", "clicked"] } },
            },
            {
              name: "words",
              in: "query",
              style: "spaceDelimited",
              explode: false,
              schema: { type: "array", items: { type: "string" } },
            },
            {
              name: "flags",
              in: "query",
              style: "pipeDelimited",
              schema: { type: "array", items: { type: "string" } },
            },
            {
              name: "filter",
              in: "query",
              style: "deepObject",
              explode: true,
              schema: { $ref: "#/components/schemas/Filter" },
            },
            {
              name: "point",
              in: "query",
              style: "form",
              explode: true,
              schema: {
                type: "object",
                properties: { x: { type: "integer" }, y: { type: "integer" } },
              },
            },
            { name: "search", in: "query", allowReserved: true, schema: { type: "string" } },
            {
              name: "x-list",
              in: "header",
              style: "simple",
              schema: { type: "array", items: { type: "string" } },
            },
            {
              name: "x-rgb",
              in: "header",
              explode: true,
              schema: { $ref: "#/components/schemas/Rgb" },
            },
            {
              name: "prefs",
              in: "cookie",
              style: "form",
              explode: false,
              schema: { type: "array", items: { type: "string" } },
            },
          ],
          responses: { "204": { description: "FIXTURE" } },
        },
      },
    },
    components: {
      schemas: {
        Rgb: {
          type: "object",
          required: ["R", "G", "B"],
          properties: { R: { type: "integer" }, G: { type: "integer" }, B: { type: "integer" } },
        },
        Filter: {
          type: "object",
          properties: { status: { type: "string" }, minPrice: { type: "integer", minimum: 0 } },
        },
      },
    },
  });
  const GOOD = {
    path: "/fixture-styles/.blue/;ids=1;ids=2/R=100,G=200,B=150",
    query:
      "metrics=opened,clicked&words=a%20b&flags=a|b&filter[status]=open&filter%5BminPrice%5D=5&x=1&y=2&search=a/b?c",
    headers: { "x-list": "a, b", "x-rgb": "R=1,G=2,B=3", cookie: "prefs=a,b" },
  };
  const get = (c: ImportedCase, change: { path?: string; query?: string; headers?: object } = {}) =>
    c.app.request(`https://fixture.test${change.path ?? GOOD.path}?${change.query ?? GOOD.query}`, {
      headers: { ...GOOD.headers, ...change.headers },
    });
  const errorsOf = async (response: Response) => {
    expect(response.status).toBe(422);
    return ((await response.json()) as { errors: { in: string; pointer: string }[] }).errors.map(
      (e) => `${e.in} ${e.pointer}`,
    );
  };

  it("carries each parameter's style, explode and allowReserved, so what the document serialises is read (a comma-separated metrics, a deepObject filter, a label, a matrix)", async () => {
    const c = await importCase("styles", stylesDocument);
    expect((await get(c)).status).toBe(501);
    expect(
      await errorsOf(await get(c, { path: "/fixture-styles/blue/;ids=1/R=1,G=2,B=3" })),
    ).toEqual(["path #/color"]);
    expect(
      await errorsOf(await get(c, { query: GOOD.query.replace("clicked", "bounced") })),
    ).toEqual(["query #/metrics/1"]);
    expect(await errorsOf(await get(c, { query: GOOD.query.replace("%5D=5", "%5D=-5") }))).toEqual([
      "query #/filter/minPrice",
    ]);
    expect(await errorsOf(await get(c, { headers: { "x-rgb": "R=1,G=2" } }))).toEqual([
      "header #/x-rgb/B",
    ]);
    // Nothing about serialisation is lost; components with numbers in a parameter are written
    // out (their members arrive as text), and say so.
    expect(findingLines(c).filter((l) => /: (style|explode|allowReserved)\b/.test(l))).toEqual([]);
    expect(findingLines(c)).toContain(
      "changed #/paths/~1fixture-styles~1{color}~1{ids}~1{rgb}/get/parameters/6/schema: #/components/schemas/Filter: written out in place (a parameter's members and items arrive as text), not referred to",
    );
  });

  it("serves the document's parameters as the source says them, and round-trips", async () => {
    const c = await importCase("styles-served", stylesDocument);
    const parameters = (await served(c)).paths["/fixture-styles/{color}/{ids}/{rgb}"]?.get
      ?.parameters;
    const said = (name: string) => {
      const p = parameters?.find((q) => q.name === name) ?? {};
      return [p.style, p.explode, p.allowReserved];
    };
    expect(said("color")).toEqual(["label", false, undefined]);
    expect(said("ids")).toEqual(["matrix", true, undefined]);
    expect(said("metrics")).toEqual(["form", false, undefined]);
    expect(said("flags")).toEqual(["pipeDelimited", undefined, undefined]);
    expect(said("filter")).toEqual(["deepObject", true, undefined]);
    expect(said("search")).toEqual([undefined, undefined, true]);
    expect(said("x-rgb")).toEqual([undefined, true, undefined]);
    const comparison = compareDocuments(c.source, "3.1", await served(c));
    expect(
      comparison.items
        .filter((i) => !i.kept && i.pointer.includes("/parameters/"))
        .map((i) => i.pointer),
    ).toEqual([]);
    const doc1 = await c.served();
    const again = await importCase("styles-again", doc1);
    expect(await again.served()).toEqual(doc1);
  });

  it("reports what OpenAPI does not define, and reads that parameter by its location's defaults", async () => {
    const c = await importCase("styles-undefined", {
      ...doc31({}),
      paths: {
        "/fixture/{id}": {
          get: {
            operationId: "fixtureGet",
            parameters: [
              {
                name: "id",
                in: "path",
                required: true,
                allowReserved: true,
                schema: { type: "string" },
              },
              { name: "q", in: "query", style: "matrix", schema: { type: "string" } },
              {
                name: "tags",
                in: "query",
                style: "deepObject",
                schema: { type: "array", items: { type: "string" } },
              },
            ],
            responses: { "204": { description: "FIXTURE" } },
          },
        },
      },
    });
    expect(findingLines(c)).toEqual(
      expect.arrayContaining([
        "lost #/paths/~1fixture~1{id}/get/parameters/0/allowReserved: allowReserved: it applies to query parameters only (OpenAPI 3.1 §4.8.12.4)",
        "lost #/paths/~1fixture~1{id}/get/parameters/1/style: style matrix: not a style of query parameters (OpenAPI 3.1 §4.8.12.4); read as form",
        "lost #/paths/~1fixture~1{id}/get/parameters/2/style: style deepObject for a value that is no object (OpenAPI 3.1 §4.8.12.4): read as form",
      ]),
    );
    expect((await c.app.request("https://fixture.test/fixture/1?q=a&tags=a&tags=b")).status).toBe(
      501,
    );
  });
});
