/**
 * Part 4's declarations that the platform could not serve correctly, refused when the app is
 * built (src/engine/operations/startup-checks.ts): paths and methods, path templates and
 * their params schemas, media types, xml objects and response keys. Most of these do not
 * compile either (test/contract-language/define-contract.test.ts); the contracts here are
 * typed as plain `Contract`, as JavaScript or a generated file would hand them over, so the
 * startup check is what refuses them. createApp's own refusals are in test/app.test.ts.
 */

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { XML_CODEC } from "../../../src/engine/xml/codec";
import { buildUnchecked, fixtureGet, WITH_SCHEMAS } from "../../support/fixture-app";

const op = fixtureGet;
const build = buildUnchecked;
const withSchemas = WITH_SCHEMAS;

describe("createApp refuses", () => {
  it.each([
    ["a path without a leading slash", { fixtureA: op("fixture") }, /must start with/],
    ["a path inside /_service", { fixtureA: op("/_service/fixture") }, /reserved prefix/],
    [
      "a path parameter without a params schema",
      { fixtureA: op("/fixture/{id}") },
      /need a request.params schema/,
    ],
    [
      "a segment with an unclosed parameter",
      { fixtureA: op("/fixture/x{id") },
      /neither literal nor/,
    ],
    // `*` is a character RFC 3986 §3.3 allows, served as text (path-template.test.ts); `^` is none.
    ["a character no segment holds", { fixtureA: op("/fixture/a^b") }, /neither literal nor/],
    [
      "a method operations cannot declare",
      { fixtureA: { ...op("/fixture"), method: "TRACE" } },
      /cannot be declared/,
    ],
    [
      "the same method and path twice",
      { fixtureA: op("/fixture"), fixtureB: op("/fixture") },
      /GET \/fixture is also operation fixtureA's, and nothing in a request tells them apart/,
    ],
  ])("%s", (_label, operations, message) => {
    expect(() => build({ operations })).toThrow(message);
  });

  it("two templates that differ only in parameter names", () => {
    const params = (name: string) => z.object({ [name]: z.string() });
    const operations = {
      fixtureA: op("/fixture/{a}", { request: { params: params("a") } }),
      fixtureB: { ...op("/fixture/{b}", { request: { params: params("b") } }), method: "DELETE" },
    };
    // Named by the later operation, so an importer can leave that one out.
    expect(() => build({ operations }, withSchemas)).toThrow(
      /^operation fixtureB: paths \/fixture\/:a and \/fixture\/:b differ only in parameter names$/,
    );
  });

  it.each([
    [
      "a member the template lacks",
      "/fixture/{id}",
      { thingId: z.string() },
      /\(id\).*\(thingId\)/,
    ],
    ["one member too many", "/fixture/{id}", { id: z.string(), extra: z.string() }, /extra/],
    ["members without parameters", "/fixture", { id: z.string() }, /\(none\).*\(id\)/],
  ])(
    "a params schema with %s (it would answer 422 to every request)",
    (_l, path, shape, message) => {
      const operations = { fixtureA: op(path, { request: { params: z.object(shape) } }) };
      expect(() => build({ operations }, withSchemas)).toThrow(message);
    },
  );

  it.each(["application/json; x=1", "json", "text/plain;charset=utf-8", "a/b/c"])(
    "a body media type that is not one (type/subtype, no parameters): %s",
    (type) => {
      const request = { body: { [type]: z.string() } };
      const operations = { fixtureA: { ...op("/fixture", { request }), method: "POST" } };
      expect(() => build({ operations }, withSchemas)).toThrow(/fixtureA: .*not a media type/);
    },
  );

  it("accepts every media type and range the platform reads (JSON, forms, text, XML, bytes)", () => {
    const request = {
      body: {
        "application/json": z.object({}),
        "application/merge-patch+json": z.object({}),
        "application/x-www-form-urlencoded": z.object({}),
        "multipart/form-data": z.object({}),
        "text/plain": z.string(),
        "application/xml": z.object({}),
        "image/*": z.instanceof(Uint8Array),
      },
    };
    const operations = { fixtureA: { ...op("/fixture", { request }), method: "PATCH" } };
    expect(() => build({ operations }, { ...withSchemas, xml: XML_CODEC })).not.toThrow();
  });

  it.each([
    ["a prefix without a namespace", { prefix: "p" }, /xml.prefix p needs an xml.namespace/],
    ["a name that is not an XML name", { name: "1st" }, /is not an XML name/],
    ["a relative namespace", { namespace: "fixture" }, /absolute URI/],
  ])("an xml object XML cannot be written by (OpenAPI 3.1 §4.8.26): %s", (_name, xml, message) => {
    const schema = z.object({ a: z.string().meta({ xml }) });
    const responses = { 200: { description: "x", content: { "application/xml": schema } } };
    const operations = { fixtureA: op("/fixture", { responses }) };
    expect(() => build({ operations }, { ...withSchemas, xml: XML_CODEC })).toThrow(
      new RegExp(`^operation fixtureA: its application/xml answer of 200: #/a.*${message.source}`),
    );
  });

  it.each(["100", "199", "600", "1XX", "6XX", "2xx", "Default", "20"])(
    "a response keyed %s: not a status a Worker answers, a range 2XX to 5XX, or default (OpenAPI 3.1 §4.8.16.2)",
    (key) => {
      const operations = {
        fixtureA: op("/fixture", { responses: { [key]: { description: "x" } } }),
      };
      expect(() => build({ operations })).toThrow(/fixtureA: response .* is not a status/);
    },
  );

  it("accepts statuses 200 to 599, ranges 2XX to 5XX and default", () => {
    const responses = Object.fromEntries(
      ["200", "599", "2XX", "3XX", "4XX", "5XX", "default"].map((k) => [k, { description: "x" }]),
    );
    expect(() => build({ operations: { fixtureA: op("/fixture", { responses }) } })).not.toThrow();
  });
});
