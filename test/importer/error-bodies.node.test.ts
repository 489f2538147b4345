/**
 * Where the platform's facts go in an error body of the API's own JSON
 * (src/importer/error-bodies.ts), imported from FIXTURE documents and served by the real app:
 * Jira's list of messages and errors by field, Bitbucket's required nested message.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import {
  doc30,
  doc31,
  importCase,
  type Json,
  jsonError,
  postOfOneMember,
} from "../support/import-case";

describe("an error body of the API's own JSON", () => {
  it("carries the detail as the one item of a list of messages where no member holds it alone (Jira's `{ errorMessages, errors, status }`), and the violations by field in an object of messages (Jira's `errors`; `{ field: [messages] }` as many frameworks write it)", async () => {
    const fixtureErrors = (byField: Json): Json => ({
      type: "object",
      additionalProperties: false,
      properties: {
        errorMessages: { type: "array", items: { type: "string" } },
        errors: { type: "object", additionalProperties: byField },
        status: { type: "integer", format: "int32" },
      },
    });
    const post = (schema: string) =>
      postOfOneMember("summary", {
        "400": {
          description: "FIXTURE invalid",
          content: {
            "application/json": { schema: { $ref: `#/components/schemas/${schema}` } },
          },
        },
      });
    const c = await importCase("error-collection", {
      ...doc30({}),
      paths: { "/fixture-issues": post("FixtureErrors"), "/fixture-notes": post("FixtureLists") },
      components: {
        schemas: {
          FixtureErrors: fixtureErrors({ type: "string" }),
          FixtureLists: fixtureErrors({ type: "array", items: { type: "string" } }),
        },
      },
    });
    expect(c.code.errors).toContain('"fieldErrors":"/errors","detail":"/errorMessages/0"');
    expect(c.code.errors).toContain('"fieldErrorLists":"/errors","detail":"/errorMessages/0"');
    const send = (path: string, body: string) =>
      c.app.request(`https://fixture.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
    const malformed = await send("/fixture-issues", "{not json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ errorMessages: [expect.any(String)], status: 400 });
    const invalid = await send("/fixture-issues", JSON.stringify({ summary: "" }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      errorMessages: [expect.any(String)],
      errors: { summary: expect.any(String) },
      status: 400,
    });
    const listed = await send("/fixture-notes", JSON.stringify({ summary: "" }));
    expect(((await listed.json()) as Json).errors).toEqual({ summary: [expect.any(String)] });
  });

  it("writes the detail where the body requires it (Bitbucket's `error: { message (required), detail }`), and a required member of one allowed value as that value", async () => {
    const nested = (inner: Json): Json => ({
      type: "object",
      additionalProperties: false,
      properties: { error: { type: "object", additionalProperties: false, ...inner } },
    });
    const get = (schema: Json) => ({
      get: { responses: { "200": { description: "FIXTURE OK" }, ...jsonError("404", schema) } },
    });
    const c = await importCase("required-carriers", {
      ...doc31({}),
      paths: {
        "/fixture-whole": get(
          nested({
            required: ["message"],
            properties: { message: { type: "string" }, detail: { type: "string" } },
          }),
        ),
        "/fixture-coded": get(
          nested({
            required: ["code"],
            properties: { code: { type: "string", enum: ["FIXTURE"] }, detail: { type: "string" } },
          }),
        ),
      },
    });
    // The first of the two presents not-found: its answer is whole.
    const missing = await c.app.request("https://fixture.test/fixture-nowhere");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { message: expect.any(String) } });
    const bodies = Object.values(c.contract.errors).map((e) => e.body);
    expect(bodies).toContainEqual(
      expect.objectContaining({ carries: { detail: "/error/message" } }),
    );
    // `code` is required and the document allows it one value: that value fixes it, so the
    // `error` object is whole and takes the detail.
    expect(bodies).toContainEqual(
      expect.objectContaining({
        carries: { detail: "/error/detail" },
        fixed: { "/error/code": "FIXTURE" },
      }),
    );
  });
});
