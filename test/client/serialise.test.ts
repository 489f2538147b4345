/**
 * Parameters written as OpenAPI 3.1 §4.8.12.4 serialises them (src/client/serialise.ts),
 * held to the engine that reads them: every style, explode and kind of value of the FIXTURE
 * styles contract, in each location, with OpenAPI's Style Examples ("blue",
 * ["blue", "black", "brown"], { R: 100, G: 200, B: 150 }), reaches the operation's schemas
 * as it was given. What RFC 6570 writes for each is checked on the request itself.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { createClient } from "../../src/client";
import { FIXTURE_STYLES_CONTRACT, FIXTURE_STYLES_HANDLERS } from "../fixtures/parameter-styles";
import { bindingOf } from "../support/client-binding";

const binding = bindingOf(
  createApp(FIXTURE_STYLES_CONTRACT, {
    engine: BUILD_ENGINE,
    handlers: FIXTURE_STYLES_HANDLERS,
    jsonSchema: z.toJSONSchema,
  }),
);
const api = createClient(FIXTURE_STYLES_CONTRACT, { binding, checkAnswers: true });

const BLUE = "blue" as const;
const COLORS: ("blue" | "black" | "brown")[] = ["blue", "black", "brown"];
const RGB = { R: 100, G: 200, B: 150 };
const PATH_STYLES = [
  "simple",
  "simpleExploded",
  "label",
  "labelExploded",
  "matrix",
  "matrixExploded",
] as const;
const every = <T>(value: T) =>
  Object.fromEntries(PATH_STYLES.map((name) => [name, value])) as Record<
    (typeof PATH_STYLES)[number],
    T
  >;

const lastUrl = () => new URL(binding.sent.at(-1)?.url ?? "https://none.invalid");

describe("path parameters (RFC 6570 §3.2.2, §3.2.5, §3.2.7)", () => {
  it("a primitive: blue, blue, .blue, .blue, ;matrix=blue, ;matrixExploded=blue", async () => {
    const answer = await api.fixturePathPrimitives({ params: every(BLUE) });
    expect(answer).toMatchObject({ status: 200, body: every(BLUE) });
    expect(lastUrl().pathname).toBe(
      "/fixture-styles/primitives/blue/blue/.blue/.blue/;matrix=blue/;matrixExploded=blue",
    );
  });

  it("an array, each style as OpenAPI's table writes it", async () => {
    const answer = await api.fixturePathArrays({ params: every(COLORS) });
    expect(answer).toMatchObject({ status: 200, body: every(COLORS) });
    expect(lastUrl().pathname).toBe(
      "/fixture-styles/arrays/blue,black,brown/blue,black,brown/.blue,black,brown/.blue.black.brown/;matrix=blue,black,brown/;matrixExploded=blue;matrixExploded=black;matrixExploded=brown",
    );
  });

  it("an object: key,value pairs, or key=value when exploded", async () => {
    const answer = await api.fixturePathObjects({ params: every(RGB) });
    expect(answer).toMatchObject({ status: 200, body: every(RGB) });
    expect(lastUrl().pathname).toBe(
      "/fixture-styles/objects/R,100,G,200,B,150/R=100,G=200,B=150/.R,100,G,200,B,150/.R=100.G=200.B=150/;matrix=R,100,G,200,B,150/;R=100;G=200;B=150",
    );
  });
});

describe("query, header and cookie parameters", () => {
  it("the query: form (exploded or not), spaceDelimited, pipeDelimited and deepObject", async () => {
    const query = {
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
    const answer = await api.fixtureQuery({ query });
    expect(answer).toMatchObject({ status: 200, body: query });
    const search = lastUrl().search;
    expect(search).toContain("list=blue&list=black&list=brown");
    expect(search).toContain("listNotExploded=blue,black,brown");
    expect(search).toContain("listSpaced=blue%20black%20brown");
    expect(search).toContain("listPiped=blue%7Cblack%7Cbrown");
    expect(search).toContain("R=100&G=200&B=150");
    expect(search).toContain("rgbDeep%5BR%5D=100");
  });

  it("headers: simple, never percent-encoded (OpenAPI 3.1.2, Parameter Object)", async () => {
    const headers = {
      "x-color": BLUE,
      "x-list": COLORS,
      "x-list-exploded": COLORS,
      "x-rgb": RGB,
      "x-rgb-exploded": RGB,
    };
    const answer = await api.fixtureHeaders({ headers });
    expect(answer).toMatchObject({ status: 200, body: headers });
    expect(binding.sent.at(-1)?.headers.get("x-rgb-exploded")).toBe("R=100,G=200,B=150");
  });

  it("cookies: form, each value encoded whole (RFC 6265 §4.1.1: a comma is no cookie-octet)", async () => {
    const cookies = { color: BLUE, list: COLORS, listExploded: COLORS, rgb: RGB, rgbExploded: RGB };
    const answer = await api.fixtureCookies({ cookies });
    expect(answer).toMatchObject({ status: 200, body: cookies });
    expect(binding.sent.at(-1)?.headers.get("cookie")).toContain("list=blue%2Cblack%2Cbrown");
  });

  it("a value that holds a delimiter keeps it: it is encoded, the delimiters are not (RFC 6570 §3.2.1)", async () => {
    const answer = await api.fixtureThing({
      params: { thingId: "12345678-1234-1234-1234-123456789012" },
    });
    expect(answer.status).toBe(200);
    const odd = await api.fixtureQuery({
      query: {
        color: BLUE,
        colorNotExploded: BLUE,
        list: COLORS,
        listNotExploded: ["blue,black" as "blue"],
        listSpaced: COLORS,
        listPiped: COLORS,
        rgb: RGB,
        rgbNotExploded: RGB,
        rgbSpaced: RGB,
        rgbPiped: RGB,
        rgbDeep: RGB,
      },
    });
    // One item with a comma in it, not two items: the enum refuses it as one value.
    expect(odd.status).toBe(422);
    expect(lastUrl().search).toContain("listNotExploded=blue%2Cblack");
  });
});
