/**
 * The example generator (src/mocks/examples/generate.ts), inside workerd, where the
 * Worker's mock mode will run it: the same seed gives the same value; readOnly and
 * writeOnly members follow the direction; `$ref` cycles end or are refused; `allOf` merges
 * and refuses conflicts; a discriminator tags its branch; every format and the pattern
 * subset give values of their kind; what it cannot honour is a reason, not a value. Values
 * are checked with @cfworker/json-schema, which validates without `eval` and so runs here.
 */
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../../src/engine/example-book";
import { type GenerateOptions, generateValue } from "../../../src/mocks/examples/generate";
import { EXAMPLE_CASES, EXAMPLE_DOCUMENT, standardSchema } from "../../fixtures/example-schemas";

/** The value made, failing the test with the reason when none was. */
function value(schema: JsonSchema, options: GenerateOptions = {}): unknown {
  const made = generateValue(schema, options);
  if (!made.ok) throw new Error(`no value: ${made.reason}`);
  return made.value;
}

/** The reason given, failing the test when a value was made. */
function reason(schema: JsonSchema, options: GenerateOptions = {}): string {
  const made = generateValue(schema, options);
  if (made.ok) throw new Error(`a value was made: ${JSON.stringify(made.value)}`);
  return made.reason;
}

const SEEDS = ["a", "b", "c", "d", "e", "f", "g", "h"];

function valid(schema: JsonSchema, v: unknown): boolean {
  return new Validator(schema as object, "2020-12", false).validate(v).valid;
}

describe("determinism", () => {
  const doc = EXAMPLE_DOCUMENT;
  const order = { $ref: "#/components/schemas/Order" };

  it("gives a deep-equal value for the same schema and seed", () => {
    for (const seed of SEEDS) {
      expect(value(order, { root: doc, seed })).toEqual(value(order, { root: doc, seed }));
    }
  });

  it("gives different values for different seeds", () => {
    const values = new Set(SEEDS.map((seed) => JSON.stringify(value(order, { root: doc, seed }))));
    expect(values.size).toBeGreaterThan(SEEDS.length / 2);
  });

  it("does not change a member's value when a sibling is added", () => {
    const one = { type: "object", required: ["a"], properties: { a: { type: "string" } } };
    const two = {
      type: "object",
      required: ["z", "a"],
      properties: { z: { type: "array", items: { type: "integer" } }, a: { type: "string" } },
    };
    expect((value(two, { seed: "s" }) as { a: string }).a).toBe(
      (value(one, { seed: "s" }) as { a: string }).a,
    );
  });
});

describe("readOnly and writeOnly (OpenAPI 3.1 §4.8.24.1)", () => {
  const account = {
    type: "object",
    required: ["id", "name", "secret"],
    properties: {
      id: { type: "integer", readOnly: true },
      name: { type: "string" },
      secret: { type: "string", writeOnly: true },
      owner: { $ref: "#/$defs/Owner" },
    },
    $defs: {
      Owner: {
        type: "object",
        required: ["ownerId", "label"],
        properties: { ownerId: { $ref: "#/$defs/Id" }, label: { type: "string" } },
      },
      Id: { type: "string", format: "uuid", readOnly: true },
    },
  };

  it("leaves readOnly members out of a request, required ones too, at any depth", () => {
    const request = value(account, { direction: "request", optional: "all" }) as Record<
      string,
      unknown
    >;
    expect(Object.keys(request).sort()).toEqual(["name", "owner", "secret"]);
    expect(request.owner).toEqual({ label: expect.any(String) });
  });

  it("leaves writeOnly members out of an answer", () => {
    const response = value(account, { direction: "response" }) as Record<string, unknown>;
    expect(Object.keys(response).sort()).toEqual(["id", "name", "owner"]);
    expect(Object.keys(response.owner as object).sort()).toEqual(["label", "ownerId"]);
  });

  it("keeps both without a direction", () => {
    expect(Object.keys(value(account) as object).sort()).toEqual(["id", "name", "owner", "secret"]);
  });

  it("passes over an example that holds a readOnly member, in a request", () => {
    const withExample = { ...account, example: { id: 1, name: "n" } };
    expect(value(withExample, { direction: "response" })).toEqual({ id: 1, name: "n" });
    expect(value(withExample, { direction: "request" })).not.toHaveProperty("id");
    expect(value(withExample)).not.toEqual({ id: 1, name: "n" }); // lacks the required secret
  });
});

describe("$ref", () => {
  it("resolves JSON Pointers with ~0, ~1 and percent-encoding", () => {
    const root = { $defs: { "a/b": { const: 1 }, "c~d": { const: 2 }, "e f": { const: 3 } } };
    expect(value({ $ref: "#/$defs/a~1b" }, { root })).toBe(1);
    expect(value({ $ref: "#/$defs/c~0d" }, { root })).toBe(2);
    expect(value({ $ref: "#/$defs/e%20f" }, { root })).toBe(3);
  });

  it("gives a reason for a reference it cannot follow", () => {
    expect(reason({ $ref: "other.yaml#/X" })).toMatch(/points outside the document/);
    expect(reason({ $ref: "#/$defs/missing" })).toMatch(/does not resolve/);
  });

  it("ends optional recursion once deep enough", () => {
    const root = EXAMPLE_DOCUMENT;
    const depth = (node: { children?: unknown[] }): number =>
      1 + Math.max(0, ...(node.children ?? []).map((c) => depth(c as { children?: unknown[] })));
    for (const seed of SEEDS) {
      const tree = value({ $ref: "#/components/schemas/TreeNode" }, { root, seed }) as {
        children?: unknown[];
      };
      expect(depth(tree)).toBeLessThanOrEqual(3);
    }
  });

  it("ends a required nullable recursion with null", () => {
    const root = EXAMPLE_DOCUMENT;
    const request = value({ $ref: "#/components/schemas/Comment" }, { root, direction: "request" });
    expect(request).toMatchObject({ replyTo: null });
    const anyOf = {
      $defs: {
        Node: {
          type: "object",
          required: ["next"],
          properties: { next: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] } },
        },
      },
      $ref: "#/$defs/Node",
    };
    expect(value(anyOf, { optional: "none" })).toEqual({ next: null });
  });

  it("refuses a required recursion that cannot end", () => {
    const loop = {
      $defs: {
        Node: {
          type: "object",
          required: ["next"],
          properties: { next: { $ref: "#/$defs/Node" } },
        },
      },
      $ref: "#/$defs/Node",
    };
    expect(reason(loop)).toMatch(/refers back to its own schema \(#\/\$defs\/Node\)/);
  });

  it("refuses a cycle of references with no value between", () => {
    const root = { $defs: { A: { $ref: "#/$defs/B" }, B: { allOf: [{ $ref: "#/$defs/A" }] } } };
    expect(reason({ $ref: "#/$defs/A" }, { root })).toMatch(/\$ref cycle/);
  });
});

describe("allOf", () => {
  it("merges properties, required members and bounds", () => {
    const schema = {
      allOf: [
        {
          type: "object",
          required: ["a"],
          properties: { a: { type: "integer", minimum: 0, maximum: 10 } },
        },
        { required: ["b"], properties: { a: { minimum: 7 }, b: { type: "string", maxLength: 3 } } },
      ],
    };
    for (const seed of SEEDS) {
      const v = value(schema, { seed, optional: "none" }) as { a: number; b: string };
      expect(Object.keys(v).sort()).toEqual(["a", "b"]);
      expect(v.a).toBeGreaterThanOrEqual(7);
      expect(v.a).toBeLessThanOrEqual(10);
      expect(v.b.length).toBeLessThanOrEqual(3);
    }
  });

  it("narrows number and integer to integer", () => {
    for (const seed of SEEDS) {
      expect(
        Number.isInteger(
          value({ allOf: [{ type: "number" }, { type: ["integer", "string"] }] }, { seed }),
        ),
      ).toBe(true);
    }
  });

  it("gives a reason for a conflict", () => {
    expect(reason({ allOf: [{ const: "a" }, { const: "b" }] })).toMatch(/two different const/);
    expect(reason({ allOf: [{ type: "string" }, { type: "integer" }] })).toMatch(
      /nothing in common/,
    );
    expect(reason({ allOf: [{ enum: [1, 2] }, { enum: [3] }] })).toMatch(
      /no value is in every enum/,
    );
    expect(reason({ allOf: [{ type: "string", minLength: 5 }, { maxLength: 2 }] })).toMatch(
      /minLength 5 is above/,
    );
  });
});

describe("oneOf, anyOf, not, if", () => {
  const root = EXAMPLE_DOCUMENT;

  it("sets the discriminator to the mapping key (by reference or by name)", () => {
    const seen = new Map<unknown, unknown>();
    for (let i = 0; i < 30; i += 1) {
      const pet = value({ $ref: "#/components/schemas/Pet" }, { root, seed: String(i) }) as Record<
        string,
        unknown
      >;
      seen.set(pet.petType, Object.keys(pet).sort().join(","));
    }
    expect(seen.get("dog")).toMatch(/goodBoy/);
    expect(seen.get("cat")).toMatch(/name/);
    expect(seen.get("lizard")).toMatch(/scales/);
  });

  it("tags overlapping branches by component name and still picks one branch", () => {
    const doc = {
      components: {
        schemas: {
          A: {
            type: "object",
            required: ["kind"],
            properties: { kind: { type: "string" }, a: { type: "integer" } },
          },
          B: {
            type: "object",
            required: ["kind"],
            properties: { kind: { type: "string" }, b: { type: "integer" } },
          },
          U: {
            oneOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }],
            discriminator: { propertyName: "kind" },
          },
        },
      },
    };
    for (const seed of SEEDS) {
      const v = value({ $ref: "#/components/schemas/U" }, { root: doc, seed }) as Record<
        string,
        unknown
      >;
      expect(["A", "B"]).toContain(v.kind);
      if (v.kind === "A") expect(v).not.toHaveProperty("b");
    }
  });

  it("names itself when it inherits a discriminator through allOf", () => {
    const doc = {
      components: {
        schemas: {
          Event: {
            type: "object",
            required: ["type"],
            properties: { type: { type: "string" } },
            discriminator: {
              propertyName: "type",
              mapping: { "order.created": "#/components/schemas/Created" },
            },
          },
          Created: {
            allOf: [
              { $ref: "#/components/schemas/Event" },
              { properties: { orderId: { type: "string" } } },
            ],
          },
          Cancelled: { allOf: [{ $ref: "#/components/schemas/Event" }] },
        },
      },
    };
    expect(value({ $ref: "#/components/schemas/Created" }, { root: doc })).toMatchObject({
      type: "order.created",
    });
    expect(value({ $ref: "#/components/schemas/Cancelled" }, { root: doc })).toMatchObject({
      type: "Cancelled",
    });
  });

  it("makes a oneOf value that matches exactly one branch", () => {
    const schema = { oneOf: [{ type: "integer" }, { type: "number", minimum: 0, maximum: 1 }] };
    for (const seed of SEEDS) expect(valid(schema, value(schema, { seed }))).toBe(true);
  });

  it("refuses a oneOf whose branches always overlap", () => {
    expect(reason({ oneOf: [{ type: "string" }, { type: "string" }] })).toMatch(/also matches/);
  });

  it("picks a branch of anyOf that can be made, skipping one that cannot", () => {
    const schema = {
      anyOf: [
        { type: "string", pattern: "(?=x)" },
        { type: "integer", minimum: 5, maximum: 5 },
      ],
    };
    for (const seed of SEEDS) expect(value(schema, { seed })).toBe(5);
  });

  it("avoids what not forbids", () => {
    const schema = { type: "string", enum: ["a", "b", "c"], not: { enum: ["a", "b"] } };
    for (const seed of SEEDS) expect(value(schema, { seed })).toBe("c");
    expect(typeof value({ not: { type: "string" } })).not.toBe("string");
  });

  it("follows if/then/else", () => {
    const schema = EXAMPLE_CASES.find((c) => c.name.startsWith("postal code"))
      ?.schema as JsonSchema;
    for (const seed of SEEDS) {
      const v = value(schema, { seed }) as { country: string; postalCode: string };
      expect(v.postalCode).toMatch(v.country === "US" ? /^\d{5}$/ : /^[A-Z]\d[A-Z] \d[A-Z]\d$/);
    }
  });
});

describe("the order of preference", () => {
  it("takes const, then a valid example, then default, then enum", () => {
    expect(value({ type: "string", const: "k", example: "e", default: "d", enum: ["k"] })).toBe(
      "k",
    );
    expect(value({ type: "string", examples: ["x1", "x2"], example: "e", default: "d" })).toBe(
      "x1",
    );
    expect(value({ type: "string", example: "e", default: "d" })).toBe("e");
    for (const seed of SEEDS)
      expect(value({ type: "string", default: "q", enum: ["p", "q"] }, { seed })).toBe("q");
    expect(value({ type: "string", default: "d", enum: ["p", "q"] })).not.toBe("d");
    expect(["p", "q"]).toContain(value({ type: "string", enum: ["p", "q"] }));
  });

  it("passes over an example or default that does not satisfy the schema", () => {
    expect(value({ type: "integer", example: "12", default: 2.5, minimum: 3, maximum: 3 })).toBe(3);
    expect(
      value({ type: "number", multipleOf: 0.01, example: 19.99, maximum: 20, minimum: 19 }),
    ).not.toBe(19.99);
  });
});

describe("formats", () => {
  const FORMATS = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "uuid",
    "json-pointer",
    "relative-json-pointer",
    "regex",
  ];

  it.each(FORMATS)("%s: values @cfworker/json-schema accepts", (format) => {
    for (const seed of SEEDS) {
      const v = value({ type: "string", format }, { seed });
      expect(typeof v).toBe("string");
      expect(valid({ type: "string", format }, v), `${format}: ${v}`).toBe(true);
    }
  });

  it.each([
    ["byte", /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/],
    ["binary", /^.*$/],
    ["password", /^.+$/],
    ["a-format-nobody-knows", /^.+$/],
  ])("%s: a string of its kind", (format, shape) => {
    for (const seed of SEEDS) expect(value({ type: "string", format }, { seed })).toMatch(shape);
  });

  it("fits a variable format into the length bounds, and refuses a fixed one that cannot fit", () => {
    for (const format of ["email", "hostname", "uri", "ipv4", "ipv6", "byte", "uri-reference"]) {
      for (const [lo, hi] of [
        [8, 8],
        [12, 16],
        [40, 60],
      ]) {
        const schema = { type: "string", format, minLength: lo, maxLength: hi };
        const made = generateValue(schema, { seed: `${lo}` });
        if (made.ok)
          expect(valid(schema, made.value), `${format} ${lo}-${hi}: ${made.value}`).toBe(true);
      }
    }
    expect(value({ type: "string", format: "email", maxLength: 8, minLength: 8 })).toHaveLength(8);
    expect(reason({ type: "string", format: "uuid", maxLength: 10 })).toMatch(
      /format uuid has no string of 0 to 10/,
    );
  });

  it("makes base64 of the content schema's JSON", () => {
    const schema = {
      type: "string",
      contentEncoding: "base64",
      contentMediaType: "application/json",
      contentSchema: { type: "object", required: ["n"], properties: { n: { const: 7 } } },
    };
    expect(JSON.parse(atob(value(schema) as string))).toEqual({ n: 7 });
  });

  it("makes int32, int64, float and double numbers", () => {
    for (const seed of SEEDS) {
      expect(
        Number.isInteger(
          value({ type: "integer", format: "int32", minimum: 2 ** 31 - 3 }, { seed }),
        ),
      ).toBe(true);
      expect(
        value({ type: "integer", format: "int32", minimum: 2 ** 31 - 3 }, { seed }),
      ).toBeLessThan(2 ** 31);
      expect(Number.isSafeInteger(value({ type: "integer", format: "int64" }, { seed }))).toBe(
        true,
      );
      expect(typeof value({ type: "number", format: "float" }, { seed })).toBe("number");
      expect(typeof value({ type: "number", format: "double" }, { seed })).toBe("number");
    }
  });
});

describe("patterns", () => {
  it.each([
    "^[A-Z]{2}$",
    "^\\+[1-9]\\d{1,14}$",
    "^[a-z0-9]+(?:-[a-z0-9]+)*$",
    "^[^\\s@]+@[^\\s@]+\\.[a-z]{2,}$",
    "^(?:\\d{3}|\\(\\d{3}\\))[-. ]?\\d{3}-\\d{4}$",
    "^[\\w.-]{3,}$",
    "^\\S+$",
    "^[\\D]{4}\\W$",
    "^(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])$",
    "^a.c$",
    "^[\\u0041-\\u005A]\\x41\\u{1F600}$",
    "^\\p{Lu}\\p{Ll}+$",
    "v\\d+",
    "^(foo|bar|baz)?qux*$",
    "^[^a-z]{2,3}$",
    "^\\$\\{[A-Z_]+\\}$",
    "^[-+]?[0-9]*\\.?[0-9]+$",
    "\\bword\\b",
  ])("%s", (pattern) => {
    for (const seed of SEEDS) {
      const v = value({ type: "string", pattern }, { seed }) as string;
      expect(new RegExp(pattern, "u").test(v), v).toBe(true);
    }
  });

  it("respects minLength and maxLength with a pattern, padding an unanchored one", () => {
    for (const seed of SEEDS) {
      const slug = value(
        { type: "string", pattern: "^[a-z]+(?:-[a-z]+)*$", minLength: 20, maxLength: 22 },
        { seed },
      );
      expect((slug as string).length).toBeGreaterThanOrEqual(20);
      expect((slug as string).length).toBeLessThanOrEqual(22);
      const free = value(
        { type: "string", pattern: "^ab", minLength: 6, maxLength: 6 },
        { seed },
      ) as string;
      expect(free).toMatch(/^ab.{4}$/);
    }
    expect(reason({ type: "string", pattern: "^[A-Z]{2}$", minLength: 3 })).toMatch(
      /no string of 3 to/,
    );
  });

  it("gives the reason for syntax it does not generate from, or a pattern that does not compile", () => {
    expect(reason({ type: "string", pattern: "^(?!admin).+$" })).toMatch(/lookahead/);
    expect(reason({ type: "string", pattern: "(?<=a)b" })).toMatch(/lookbehind/);
    expect(reason({ type: "string", pattern: "^(a)\\1$" })).toMatch(/backreference/);
    expect(reason({ type: "string", pattern: "^\\p{Script=Greek}$" })).toMatch(/Unicode property/);
    expect(reason({ type: "string", pattern: "^[a-z" })).toMatch(/does not compile/);
  });

  it("falls back to the format when the pattern cannot be generated from", () => {
    const schema = { type: "string", format: "uuid", pattern: "^(?!0{8})[0-9a-f-]{36}$" };
    for (const seed of SEEDS) expect(valid(schema, value(schema, { seed }))).toBe(true);
  });
});

describe("numbers, arrays and objects", () => {
  it("makes exact decimal multiples", () => {
    for (const seed of SEEDS) {
      const v = value(
        { type: "number", multipleOf: 0.01, minimum: 0.01, maximum: 1000 },
        { seed },
      ) as number;
      expect(Number.isInteger(v / 0.01)).toBe(true);
      expect(Math.round(v * 100) / 100).toBe(v);
      const both = value(
        { allOf: [{ type: "number", multipleOf: 0.25 }, { multipleOf: 0.1 }] },
        { seed },
      ) as number;
      expect(valid({ multipleOf: 0.25 }, both) && valid({ multipleOf: 0.1 }, both)).toBe(true);
    }
  });

  it("honours both forms of exclusive bounds", () => {
    for (const seed of SEEDS) {
      expect(value({ type: "integer", exclusiveMinimum: 4, exclusiveMaximum: 6 }, { seed })).toBe(
        5,
      );
      expect(
        value(
          {
            type: "integer",
            minimum: 4,
            exclusiveMinimum: true,
            maximum: 6,
            exclusiveMaximum: true,
          },
          { seed },
        ),
      ).toBe(5);
    }
    expect(reason({ type: "integer", minimum: 0.1, maximum: 0.9 })).toMatch(/no integer/);
  });

  it("refuses uniqueItems that the items cannot satisfy, and fills minItems otherwise", () => {
    expect(
      reason({ type: "array", minItems: 3, uniqueItems: true, items: { enum: [1, 2] } }),
    ).toMatch(/uniqueItems/);
    const v = value({
      type: "array",
      minItems: 5,
      uniqueItems: true,
      items: { type: "integer", minimum: 0, maximum: 9 },
    });
    expect(new Set(v as number[]).size).toBe(5);
  });

  it("refuses a required member that additionalProperties: false forbids", () => {
    const schema = {
      type: "object",
      required: ["x"],
      properties: { y: {} },
      additionalProperties: false,
    };
    expect(reason(schema)).toMatch(/required member x is not allowed/);
  });

  it("makes only required members with optional none, and all with optional all", () => {
    const schema = {
      type: "object",
      required: ["a"],
      properties: { a: { type: "string" }, b: { type: "string" } },
    };
    expect(Object.keys(value(schema, { optional: "none" }) as object)).toEqual(["a"]);
    expect(Object.keys(value(schema, { optional: "all" }) as object)).toEqual(["a", "b"]);
    expect(Object.keys(value(schema, { direction: "request" }) as object)).toEqual(["a"]);
    expect(Object.keys(value(schema, { direction: "response" }) as object)).toEqual(["a", "b"]);
  });

  it("handles boolean schemas", () => {
    expect(reason(false)).toMatch(/false admits no value/);
    expect(value(true)).toEqual(expect.any(String));
    expect(reason({ type: "object", required: ["a"], properties: { a: false } })).toMatch(
      /false admits no value/,
    );
  });
});

describe("the corpus, checked with @cfworker/json-schema inside workerd", () => {
  for (const example of EXAMPLE_CASES) {
    it(example.name, () => {
      for (const direction of [undefined, "request", "response"] as const) {
        const schema = standardSchema(example.schema, direction);
        for (const seed of SEEDS.slice(0, 3)) {
          const v = value(example.schema, { root: EXAMPLE_DOCUMENT, seed, direction });
          expect(valid(schema as JsonSchema, v), `${direction} ${seed}: ${JSON.stringify(v)}`).toBe(
            true,
          );
        }
      }
    });
  }
});
