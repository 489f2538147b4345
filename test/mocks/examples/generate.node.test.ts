/**
 * Property test of the example generator (src/mocks/examples/generate.ts): every value it
 * makes for the corpus of API-shaped schemas, for several seeds and both directions, must
 * be valid for two independent JSON Schema 2020-12 validators, Ajv (with ajv-formats) and
 * @cfworker/json-schema; and over random seeds (fast-check) too. Ajv compiles with
 * `new Function`, which is why this runs in Node rather than workerd.
 */
import { Validator } from "@cfworker/json-schema";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../../src/engine/example-book";
import { generateValue } from "../../../src/mocks/examples/generate";
import {
  type Direction,
  EXAMPLE_CASES,
  EXAMPLE_DOCUMENT,
  type ExampleCase,
  standardSchema,
} from "../../fixtures/example-schemas";

const SEEDS = ["", "1", "seed-2", "order#42", "ünïcode", "x".repeat(40)];
const DIRECTIONS: readonly (Direction | undefined)[] = [undefined, "request", "response"];

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);

type Check = (value: unknown) => string[];

const checks = new Map<string, Check>();

/** Both validators for a case in a direction: the errors each reports, tagged by validator. */
function checkerFor(example: ExampleCase, direction: Direction | undefined): Check {
  const key = `${example.name}|${direction}`;
  const known = checks.get(key);
  if (known) return known;
  const schema = standardSchema(example.schema as Record<string, unknown>, direction);
  const ajvValidate = ajv.compile(schema as object);
  const cfworker = new Validator(schema as object, "2020-12", false);
  const check: Check = (value) => {
    const errors: string[] = [];
    if (!ajvValidate(value)) errors.push(`ajv: ${ajv.errorsText(ajvValidate.errors)}`);
    const result = cfworker.validate(value);
    if (!result.valid) {
      errors.push(
        `cfworker: ${result.errors.map((e) => `${e.instanceLocation} ${e.error}`).join("; ")}`,
      );
    }
    return errors;
  };
  checks.set(key, check);
  return check;
}

function make(schema: unknown, seed: string, direction?: Direction) {
  return generateValue(schema as JsonSchema, { root: EXAMPLE_DOCUMENT, seed, direction });
}

describe("the corpus", () => {
  it("has at least forty API-shaped schemas", () => {
    expect(EXAMPLE_CASES.length).toBeGreaterThanOrEqual(40);
  });

  it("is itself valid for both validators (each schema compiles)", () => {
    for (const example of EXAMPLE_CASES) {
      expect(() => checkerFor(example, undefined), example.name).not.toThrow();
    }
  });
});

describe("every generated value is valid for Ajv 2020 and @cfworker/json-schema", () => {
  for (const example of EXAMPLE_CASES) {
    it(example.name, () => {
      for (const direction of example.directions ?? DIRECTIONS) {
        const check = checkerFor(example, direction);
        for (const seed of SEEDS) {
          const made = make(example.schema, seed, direction);
          const label = `${example.name}, ${direction ?? "no direction"}, seed ${JSON.stringify(seed)}`;
          expect(made, label).toMatchObject({ ok: true });
          if (!made.ok) continue;
          expect(check(made.value), `${label}: ${JSON.stringify(made.value)}`).toEqual([]);
        }
      }
    });
  }
});

describe("the validators catch a wrong value (so the checks above can fail)", () => {
  it.each([
    ["email address", "not an email"],
    ["country code", "de"],
    ["price", 10.005],
    ["money", { amount: 1, currency: "EUR", extra: true }],
    ["pet (oneOf with a discriminator)", { petType: "dog", name: "Rex" }],
    ["unique tags", ["ab", "ab"]],
  ])("%s rejects %j", (name, value) => {
    const example = EXAMPLE_CASES.find((c) => c.name === name);
    if (!example) throw new Error(`no case ${name}`);
    expect(checkerFor(example, undefined)(value)).toHaveLength(2);
  });
});

describe("over random seeds (fast-check)", () => {
  const names = [
    "user",
    "order (allOf of a base resource)",
    "pet (oneOf with a discriminator)",
    "tree (recursive)",
    "slug",
    "E.164 phone number",
    "price",
    "postal code by country (if/then/else)",
  ];
  for (const name of names) {
    it(`${name}: valid, and the same for the same seed`, () => {
      const example = EXAMPLE_CASES.find((c) => c.name === name);
      if (!example) throw new Error(`no case ${name}`);
      fc.assert(
        fc.property(fc.string(), fc.constantFrom(...DIRECTIONS), (seed, direction) => {
          const made = make(example.schema, seed, direction);
          if (!made.ok) return false;
          expect(checkerFor(example, direction)(made.value)).toEqual([]);
          expect(make(example.schema, seed, direction)).toEqual(made);
          return true;
        }),
        { numRuns: 60 },
      );
    });
  }
});

describe("what the values look like", () => {
  it("differs between seeds", () => {
    const values = new Set(
      SEEDS.map((seed) => JSON.stringify(make({ $ref: "#/components/schemas/User" }, seed))),
    );
    expect(values.size).toBeGreaterThan(1);
  });

  it("gives each branch of a tagged union for some seed, tagged as the mapping says", () => {
    const tags = new Set<unknown>();
    for (let i = 0; i < 40; i += 1) {
      const made = make({ $ref: "#/components/schemas/Pet" }, `pet-${i}`);
      if (made.ok) tags.add((made.value as { petType: unknown }).petType);
    }
    expect([...tags].sort()).toEqual(["cat", "dog", "lizard"]);
  });

  it("makes a request with only required members, and an answer with optional ones too", () => {
    const user = { $ref: "#/components/schemas/User" };
    const request = make(user, "r", "request");
    const response = make(user, "r", "response");
    expect(request.ok && Object.keys(request.value as object).sort()).toEqual([
      "email",
      "name",
      "password",
    ]);
    expect(response.ok && Object.keys(response.value as object)).toEqual(
      expect.arrayContaining(["id", "createdAt", "phone", "roles", "address"]),
    );
    expect(response.ok && Object.keys(response.value as object)).not.toContain("password");
  });
});

describe("numbers bounded only by their type", () => {
  it("are drawn as an API's numbers are, not near the type's limits (zod's int: ±2^53 − 1; int32)", () => {
    const bounded = [
      { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
      { type: "integer", format: "int32", minimum: -2147483648, maximum: 2147483647 },
      { type: "integer", format: "int64" },
    ];
    for (const schema of bounded)
      for (const seed of SEEDS) {
        const made = generateValue(schema as JsonSchema, { seed });
        expect(made.ok && Math.abs(made.value as number)).toBeLessThanOrEqual(1000);
      }
    // A bound the API sets is kept.
    const own = generateValue({ type: "integer", minimum: 5000, maximum: 5002 } as JsonSchema);
    expect(own.ok && own.value).toBeGreaterThanOrEqual(5000);
  });
});
