/**
 * A property-based walk over the served document (issue 44 §5), as an outside tester walks
 * it: for every path of the document and every method, requests made by fast-check with a
 * fixed seed (path values, query values, JSON bodies), each answer held to the document the
 * same app serves. The classes it looks for, each counted and printed per app and mode:
 *
 * - `405`: a method the path does not declare answered other than 405 (RFC 9110 §15.5.6);
 * - `allow`: an Allow other than the one the path's OPTIONS documents;
 * - `documented`: an answer whose status, media type, headers or body the document does not
 *   give for the operation (Ajv, JSON Schema 2020-12);
 * - `write-only`: an answer holding a member its documented schema marks writeOnly;
 * - `5xx`: a server error the document does not give (501 and 503 are documented ones).
 *
 * Apps: FIXTURE contracts with their handlers and without (the `501` and `examples`
 * settings), and FIXTURE documents imported; `WALK_DOCUMENTS` adds real documents, read
 * where they are (commas between). The `sandbox` setting is walked in workerd, which has
 * its Durable Object (walk.sandbox.test.ts). Node: Ajv compiles with `new Function`. The
 * walk itself is test/tools/walk.ts.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Contract } from "../../src/contract-language/contract";
import {
  FIXTURE_ERROR_BODIES_CONTRACT,
  FIXTURE_ERROR_BODIES_HANDLERS,
} from "../fixtures/error-bodies";
import { FIXTURE_EXAMPLES_CONTRACT } from "../fixtures/examples";
import { FIXTURE_HANDLERS, FIXTURE_OPERATIONS_CONTRACT } from "../fixtures/operations";
import { FIXTURE_STATES_CONTRACT, fixtureStatesHandlers } from "../fixtures/states";
import { builtApp } from "../support/built-app";
import { importCase } from "../support/import-case";
import { ajvCheck } from "../tools/ajv-check";
import { CLASSES, type Class, walk } from "../tools/walk";

type Json = Record<string, unknown>;

/**
 * FIXTURE: the classes the outside tester found, in one document: a concrete path beside a
 * templated sibling with more methods, an answer whose example holds a write-only member,
 * and a binary answer with no example.
 */
const TESTER_CLASSES: Json = {
  openapi: "3.1.0",
  info: { title: "FIXTURE walk classes", version: "1.0.0" },
  paths: {
    "/fixture-docs/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: {
        responses: {
          "200": {
            description: "FIXTURE doc",
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
      patch: { responses: { "204": { description: "FIXTURE patched" } } },
      delete: { responses: { "204": { description: "FIXTURE deleted" } } },
    },
    "/fixture-docs/export": {
      get: {
        responses: {
          "200": {
            description: "FIXTURE export",
            content: { "text/csv": { schema: { type: "string" } } },
          },
        },
      },
    },
    "/fixture-payments": {
      post: {
        requestBody: {
          content: {
            "application/json": { schema: { $ref: "#/components/schemas/FixturePayment" } },
          },
        },
        responses: {
          "201": {
            description: "FIXTURE paid",
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/FixturePayment" },
                example: { amount: 5, cvc: "123" },
              },
            },
          },
        },
      },
    },
    "/fixture-files/{id}": {
      get: {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "FIXTURE file",
            content: {
              "application/octet-stream": { schema: { type: "string", format: "binary" } },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      FixturePayment: {
        type: "object",
        properties: { amount: { type: "integer" }, cvc: { type: "string", writeOnly: true } },
      },
    },
  },
};

const env = { RESPONSE_VALIDATION: "log" } as unknown as Env;
const served = async (contract: Contract, handlers: object, setting?: string) => {
  const { app } = await builtApp(contract, handlers);
  const bindings = { ...env, ...(setting ? { UNHANDLED_OPERATIONS: setting } : {}) } as Env;
  return (request: Request) => Promise.resolve(app.fetch(request, bindings));
};

describe("a property-based walk over each served document (fast-check, seed 44)", () => {
  it("finds no answer of any class the document does not give, in each mode", async () => {
    const rich = await importCase("walk-rich", {
      yaml: readFileSync("test/fixtures/openapi/rich-3.1.yaml", "utf8"),
    });
    const conventions = await importCase("walk-error-conventions", {
      yaml: readFileSync("test/fixtures/error-conventions-3.1.yaml", "utf8"),
    });
    const classes = await importCase("walk-tester-classes", TESTER_CLASSES);
    const real = (process.env.WALK_DOCUMENTS ?? "").split(",").filter((f) => f !== "");
    const imported = await Promise.all(
      real.map(async (file, i) => ({
        name: file.split("/").at(-1) ?? file,
        contract: (
          await importCase(
            `walk-real-${i}`,
            file.endsWith(".json")
              ? (JSON.parse(readFileSync(file, "utf8")) as Json)
              : { yaml: readFileSync(file, "utf8") },
          )
        ).contract,
      })),
    );
    const apps: [string, Contract, object][] = [
      ["FIXTURE operations", FIXTURE_OPERATIONS_CONTRACT, FIXTURE_HANDLERS],
      ["FIXTURE own error bodies", FIXTURE_ERROR_BODIES_CONTRACT, FIXTURE_ERROR_BODIES_HANDLERS],
      ["FIXTURE states", FIXTURE_STATES_CONTRACT, fixtureStatesHandlers(new Map())],
      ["FIXTURE examples", FIXTURE_EXAMPLES_CONTRACT, {}],
      ["the rich FIXTURE document, imported", rich.contract, {}],
      ["the FIXTURE error conventions, imported", conventions.contract, {}],
      ["the FIXTURE of the tester's classes, imported", classes.contract, {}],
      ...imported.map(({ name, contract }): [string, Contract, object] => [name, contract, {}]),
    ];
    const total: Record<Class, number> = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<
      Class,
      number
    >;
    const lines: string[] = [];
    for (const [name, contract, handlers] of apps)
      for (const setting of Object.keys(handlers).length > 0 ? [undefined] : ["501", "examples"]) {
        const { requests, found } = await walk(await served(contract, handlers, setting), ajvCheck);
        const counts = CLASSES.map((c) => `${c} ${found[c].length}`).join(", ");
        console.log(
          `walk: ${name} (${setting ?? "with handlers"}): ${requests} requests; ${counts}`,
        );
        for (const c of CLASSES) {
          total[c] += found[c].length;
          for (const line of found[c].slice(0, 3))
            lines.push(`${name} (${setting ?? "handlers"}) ${c}: ${line}`);
        }
        expect(requests, name).toBeGreaterThan(20);
      }
    console.log(`walk: in all, ${CLASSES.map((c) => `${c} ${total[c]}`).join(", ")}`);
    expect(lines).toEqual([]);
  }, 600_000);
});
