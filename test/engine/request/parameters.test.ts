/**
 * Parameters read as OpenAPI 3.1 §4.8.12.4 serialises them, for every style, explode and
 * kind of value in each location, with OpenAPI's own Style Examples (`color` is "blue",
 * ["blue", "black", "brown"] or { R: 100, G: 200, B: 150 }); what is not written so is a
 * 422 at its pointer, never a 500, and never quotes what was sent. The FIXTURE contract
 * is test/fixtures/parameter-styles.ts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import type { Contract, ParameterStyle } from "../../../src/contract-language/contract";
import { FIXTURE_STYLES_CONTRACT, FIXTURE_STYLES_HANDLERS } from "../../fixtures/parameter-styles";

const app = createApp(FIXTURE_STYLES_CONTRACT, {
  engine: BUILD_ENGINE,
  handlers: FIXTURE_STYLES_HANDLERS,
  jsonSchema: z.toJSONSchema,
});
const call = (path: string, headers: Record<string, string> = {}) =>
  Promise.resolve(app.request(`https://fixture.test${path}`, { headers }, env));

const BLUE = "blue";
const COLORS = ["blue", "black", "brown"];
const RGB = { R: 100, G: 200, B: 150 };

/** The answer's body, after checking it is a 200. */
async function read(response: Response): Promise<unknown> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text);
}

/** The errors of a 422, after checking it is one and that it does not quote `sent`. */
async function refused(
  response: Response,
  sent: string,
): Promise<{ in: string; pointer: string; detail: string }[]> {
  const text = await response.text();
  expect(response.status, text).toBe(422);
  expect(text).not.toContain(sent);
  return (JSON.parse(text) as { errors: { in: string; pointer: string; detail: string }[] }).errors;
}

describe("path parameters: simple, label and matrix (RFC 6570 §3.2.2, §3.2.5, §3.2.7), as OpenAPI's Style Examples write them", () => {
  const path = (kind: string, cells: readonly string[]) =>
    `/fixture-styles/${kind}/${cells.join("/")}`;
  const styles = ["simple", "simpleExploded", "label", "labelExploded", "matrix", "matrixExploded"];
  const same = <T>(value: T) => Object.fromEntries(styles.map((name) => [name, value]));

  it("a primitive: blue, blue, .blue, .blue, ;color=blue, ;color=blue", async () => {
    const cells = ["blue", "blue", ".blue", ".blue", ";matrix=blue", ";matrixExploded=blue"];
    expect(await read(await call(path("primitives", cells)))).toEqual(same(BLUE));
  });

  it("an array: blue,black,brown (simple, either explode), .blue,black,brown and .blue.black.brown (label), ;color=blue,black,brown and ;color=blue;color=black;color=brown (matrix)", async () => {
    const cells = [
      "blue,black,brown",
      "blue,black,brown",
      ".blue,black,brown",
      ".blue.black.brown",
      ";matrix=blue,black,brown",
      ";matrixExploded=blue;matrixExploded=black;matrixExploded=brown",
    ];
    expect(await read(await call(path("arrays", cells)))).toEqual(same(COLORS));
  });

  it("an object: R,100,G,200,B,150 and R=100,G=200,B=150 (simple), .R,100,G,200,B,150 and .R=100.G=200.B=150 (label), ;color=R,100,G,200,B,150 and ;R=100;G=200;B=150 (matrix)", async () => {
    const cells = [
      "R,100,G,200,B,150",
      "R=100,G=200,B=150",
      ".R,100,G,200,B,150",
      ".R=100.G=200.B=150",
      ";matrix=R,100,G,200,B,150",
      ";R=100;G=200;B=150",
    ];
    expect(await read(await call(path("objects", cells)))).toEqual(same(RGB));
  });

  it("splits a value before decoding it: a percent-encoded delimiter is data (RFC 6570 §3.2.1), a literal one separates", async () => {
    const app = createApp(
      {
        ...FIXTURE_STYLES_CONTRACT,
        operations: {
          fixtureList: {
            method: "GET",
            path: "/fixture-list/{ids}/{labels}",
            request: {
              params: z.object({
                ids: z.array(z.string()),
                labels: z.array(z.string()).check(z.meta({ style: "label", explode: true })),
              }),
            },
            responses: {
              200: { description: "FIXTURE", content: { "application/json": z.unknown() } },
            },
          },
        },
      } as Contract,
      {
        engine: BUILD_ENGINE,
        jsonSchema: z.toJSONSchema,
        handlers: {
          fixtureList: ({ params }: { params: unknown }) => ({ status: 200, body: params }),
        },
      } as never,
    );
    const response = await app.request(
      "https://fixture.test/fixture-list/a%2Cb,c%3Bd/.x%2Fy.z%20w",
      {},
      env,
    );
    expect(await read(response)).toEqual({ ids: ["a,b", "c;d"], labels: ["x/y", "z w"] });
  });

  it("refuses with a 422 at the member's pointer what is not written as its style says: a label without its dot, a matrix of another name or with two values, an object with a key and no value", async () => {
    const good = ["blue", "blue", ".blue", ".blue", ";matrix=blue", ";matrixExploded=blue"];
    const cases: [number, string, string][] = [
      [2, "marker", "#/label"],
      [4, ";other=marker", "#/matrix"],
      [4, ";matrix=blue;matrix=marker", "#/matrix"],
      [5, "marker", "#/matrixExploded"],
    ];
    for (const [index, cell, pointer] of cases) {
      const cells = good.map((c, i) => (i === index ? cell : c));
      const errors = await refused(await call(path("primitives", cells)), "marker");
      expect(errors, cell).toEqual([
        {
          in: "path",
          pointer,
          detail: expect.stringMatching(
            /^Must be serialised in style (label|matrix), explode (true|false) \(OpenAPI 3\.1 §4\.8\.12\.4\), as in ".+"\.$/,
          ),
        },
      ]);
    }
    const objects = [
      "R,100,G",
      "R=100,G=200,B=150",
      ".R,100,G,200,B,150",
      ".R=100.G=200.B=150",
      ";matrix=R,100,G,200,B,150",
      ";R=100;G=200;B=150",
    ];
    const errors = await refused(await call(path("objects", objects)), "R,100,G");
    expect(errors).toEqual([
      { in: "path", pointer: "#/simple", detail: expect.stringContaining('as in "k,v,k2,v2"') },
    ]);
  });

  it("holds each read value to its schema: an item outside the enum is a 422 at its own pointer", async () => {
    const cells = [
      "blue,scarlet,brown",
      "blue,black,brown",
      ".blue,black,brown",
      ".blue.black.brown",
      ";matrix=blue,black,brown",
      ";matrixExploded=blue;matrixExploded=black;matrixExploded=brown",
    ];
    const errors = await refused(await call(path("arrays", cells)), "scarlet");
    expect(errors.map((e) => e.pointer)).toEqual(["#/simple/1"]);
  });
});

describe("query parameters: form, spaceDelimited, pipeDelimited and deepObject, as OpenAPI's Style Examples write them", () => {
  const ALL = [
    "color=blue",
    "colorNotExploded=blue",
    "list=blue&list=black&list=brown",
    "listNotExploded=blue,black,brown",
    "listSpaced=blue%20black%20brown",
    "listPiped=blue|black|brown",
    "R=100&G=200&B=150",
    "rgbNotExploded=R,100,G,200,B,150",
    "rgbSpaced=R%20100%20G%20200%20B%20150",
    "rgbPiped=R%7C100%7CG%7C200%7CB%7C150",
    "rgbDeep%5BR%5D=100&rgbDeep%5BG%5D=200&rgbDeep%5BB%5D=150",
  ];
  const EXPECTED = {
    color: BLUE,
    colorNotExploded: BLUE,
    list: COLORS,
    listNotExploded: COLORS,
    listSpaced: COLORS,
    listPiped: COLORS,
    rgb: RGB,
    rgbNotExploded: RGB,
    rgbSpaced: RGB,
    rgbPiped: RGB,
    rgbDeep: RGB,
  };
  const query = (pieces: readonly string[]) => call(`/fixture-styles/query?${pieces.join("&")}`);

  it("reads every style of OpenAPI's table: color=blue,black,brown; R=100&G=200&B=150; blue%20black%20brown; blue|black|brown; color[R]=100&color[G]=200", async () => {
    expect(await read(await query(ALL))).toEqual(EXPECTED);
  });

  it("reads the delimiters in the other forms clients write them: + for a space, %7C and | for a pipe, [ ] unencoded (OpenAPI 3.1.2 Appendix E)", async () => {
    const pieces = ALL.map((p) =>
      p
        .replace("listSpaced=blue%20black%20brown", "listSpaced=blue+black+brown")
        .replace("listPiped=blue|black|brown", "listPiped=blue%7Cblack%7Cbrown")
        .replace("rgbDeep%5BR%5D", "rgbDeep[R]"),
    );
    expect(await read(await query(pieces))).toEqual(EXPECTED);
  });

  it("reads ?metrics=opened,clicked as a list when the parameter says explode: false, and a repeated name when it does not", async () => {
    const pieces = ALL.map((p) =>
      p.startsWith("listNotExploded=") ? "listNotExploded=blue,black&listNotExploded=brown" : p,
    );
    expect(await read(await query(pieces))).toMatchObject({ listNotExploded: COLORS });
    const exploded = ALL.map((p) => (p.startsWith("list=") ? "list=blue,black,brown" : p));
    const errors = await refused(await query(exploded), "blue,black,brown");
    // One item, which is none of the enum's values: explode true does not split at commas.
    expect(errors).toEqual([
      { in: "query", pointer: "#/list/0", detail: expect.stringContaining("Must be one of") },
    ]);
  });

  it("refuses with a 422 at the member's pointer: an object with a key and no value, a deepObject named without brackets or nested, two objects for one name", async () => {
    const cases: [string, string, string][] = [
      ["rgbNotExploded=", "rgbNotExploded=R,100,G,200,B", "#/rgbNotExploded"],
      ["rgbSpaced=", "rgbSpaced=R%20100%20G", "#/rgbSpaced"],
      ["rgbPiped=", "rgbPiped=R|100|G", "#/rgbPiped"],
      ["rgbDeep", "rgbDeep=100", "#/rgbDeep"],
      ["rgbDeep", "rgbDeep[R][x]=1&rgbDeep[G]=200&rgbDeep[B]=150", "#/rgbDeep"],
      [
        "rgbNotExploded=",
        "rgbNotExploded=R,1,G,2,B,3&rgbNotExploded=R,1,G,2,B,3",
        "#/rgbNotExploded",
      ],
    ];
    for (const [start, replacement, pointer] of cases) {
      const pieces = ALL.map((p) => (p.startsWith(start) ? replacement : p));
      const errors = await refused(await query(pieces), replacement);
      expect(errors, replacement).toEqual([
        {
          in: "query",
          pointer,
          detail: expect.stringMatching(
            /^Must be serialised in style \w+, explode (true|false) \(OpenAPI 3\.1 §4\.8\.12\.4\), as in ".+"\.$/,
          ),
        },
      ]);
    }
  });

  it("says each missing member is required, the spread object's members at their own pointers", async () => {
    const errors = await refused(
      await query(ALL.filter((p) => !p.startsWith("R=") && !p.startsWith("rgbDeep"))),
      "blue",
    );
    expect(errors.map((e) => `${e.pointer} ${e.detail}`)).toEqual([
      "#/rgb Is required.",
      "#/rgbDeep Is required.",
    ]);
  });

  it("leaves a name no member declares to the query schema (which strips it here), not to a member", async () => {
    const response = await query([...ALL, "extra=1", "S=2"]);
    // The query schema strips names it does not declare; none is taken by a member it is not.
    expect(await read(response)).toEqual(EXPECTED);
  });
});

describe("header parameters: simple (RFC 6570 §3.2.2), never percent-decoded, lists with whitespace (RFC 9110 §5.6.1)", () => {
  const HEADERS = {
    "x-color": "blue",
    "x-list": "blue,black,brown",
    "x-list-exploded": "blue, black ,brown",
    "x-rgb": "R,100,G,200,B,150",
    "x-rgb-exploded": "R=100,G=200,B=150",
  };

  it("reads a primitive, an array and an object, either explode", async () => {
    expect(await read(await call("/fixture-styles/headers", HEADERS))).toEqual({
      "x-color": BLUE,
      "x-list": COLORS,
      "x-list-exploded": COLORS,
      "x-rgb": RGB,
      "x-rgb-exploded": RGB,
    });
  });

  it("refuses an object with a key and no value at its pointer", async () => {
    const errors = await refused(
      await call("/fixture-styles/headers", { ...HEADERS, "x-rgb": "R,100,G,200,marker" }),
      "marker",
    );
    expect(errors).toEqual([
      {
        in: "header",
        pointer: "#/x-rgb",
        detail: expect.stringContaining("style simple, explode false"),
      },
    ]);
  });
});

describe("cookie parameters: form, one cookie per parameter (OpenAPI 3.1.2 Appendix D, RFC 6265 §4.2.1)", () => {
  it("reads a primitive, an array and an object, either explode, with commas as sent or percent-encoded", async () => {
    const cookie = [
      "color=blue",
      "list=blue,black,brown",
      `listExploded=${encodeURIComponent("blue,black,brown")}`,
      `rgb=${encodeURIComponent("R,100,G,200,B,150")}`,
      `rgbExploded="R=100,G=200,B=150"`,
    ].join("; ");
    expect(await read(await call("/fixture-styles/cookies", { cookie }))).toEqual({
      color: BLUE,
      list: COLORS,
      listExploded: COLORS,
      rgb: RGB,
      rgbExploded: RGB,
    });
  });

  it("refuses an object with a key and no value at its pointer", async () => {
    const cookie =
      "color=blue; list=blue; listExploded=blue; rgb=R,100,G,200,marker; rgbExploded=R=1,G=2,B=3";
    const errors = await refused(await call("/fixture-styles/cookies", { cookie }), "marker");
    expect(errors).toEqual([
      {
        in: "cookie",
        pointer: "#/rgb",
        detail: expect.stringContaining("style form, explode false"),
      },
    ]);
  });
});

describe("the OpenAPI document", () => {
  it("says each parameter's style and explode in its Parameter Object, as declared, and not in its schema", async () => {
    const document = (await read(await call("/_service/openapi.json"))) as {
      paths: Record<string, { get: { parameters: Record<string, unknown>[] } }>;
    };
    const parameters = document.paths["/fixture-styles/query"]?.get.parameters ?? [];
    const byName = (name: string) => parameters.find((p) => p.name === name);
    expect(byName("listNotExploded")).toMatchObject({ in: "query", style: "form", explode: false });
    expect(byName("rgbDeep")).toMatchObject({ style: "deepObject", explode: true });
    // Declared by default: OpenAPI's default, said by nothing.
    expect(byName("list")).not.toHaveProperty("style");
    expect(JSON.stringify(parameters.map((p) => p.schema))).not.toMatch(/"style"|"explode"/);
  });

  it("says a uuid is a uuid (JSON Schema 2020-12 §7.3.5), and takes the document's own example, of no RFC 9562 version or variant", async () => {
    const document = (await read(await call("/_service/openapi.json"))) as {
      paths: Record<string, { get: { parameters: Record<string, unknown>[] } }>;
    };
    const thing = document.paths["/fixture-styles/things/{thingId}"]?.get.parameters.find(
      (p) => p.name === "thingId",
    );
    expect(thing).toMatchObject({
      example: "12345678-1234-1234-1234-123456789012",
      schema: { format: "uuid" },
    });
    expect(
      await read(await call("/fixture-styles/things/12345678-1234-1234-1234-123456789012")),
    ).toEqual({
      thingId: "12345678-1234-1234-1234-123456789012",
    });
  });
});

describe("a declaration OpenAPI does not define stops the app from starting, naming the operation", () => {
  const start =
    (
      location: "params" | "query" | "headers" | "cookies",
      member: z.ZodMiniType,
      path = "/fixture-bad",
    ) =>
    () =>
      createApp(
        {
          ...FIXTURE_STYLES_CONTRACT,
          operations: {
            fixtureBad: {
              method: "GET",
              path: location === "params" ? `${path}/{x}` : path,
              request: { [location]: z.object({ x: member }) },
              responses: { 204: { description: "FIXTURE" } },
            },
          },
        } as Contract,
        { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema } as never,
      );
  const meta = (style: ParameterStyle) => z.meta({ style });

  it("a style of another location: label in a query, form in a path, deepObject in a header, matrix in a cookie", () => {
    expect(start("query", z.string().check(meta("label")))).toThrow(
      "operation fixtureBad: query parameter x: style label is not one of a query parameter's (form, spaceDelimited, pipeDelimited, deepObject)",
    );
    expect(start("params", z.string().check(meta("form")))).toThrow("path parameter x: style form");
    expect(start("headers", z.object({ a: z.string() }).check(meta("deepObject")))).toThrow(
      "header parameter x: style deepObject",
    );
    expect(start("cookies", z.string().check(meta("matrix")))).toThrow(
      "cookie parameter x: style matrix",
    );
  });

  it("deepObject for what is no object, and allowReserved outside the query", () => {
    expect(start("query", z.array(z.string()).check(meta("deepObject")))).toThrow(
      "operation fixtureBad: query parameter x: style deepObject serialises objects only",
    );
    expect(start("params", z.string().check(z.meta({ allowReserved: true })))).toThrow(
      "path parameter x: allowReserved applies to query parameters only",
    );
  });
});
