/**
 * What the sandbox reads of a member (src/engine/sandbox/values.ts) is read through a
 * reference to a named schema as through the schema itself: the served contract writes one
 * wherever a schema holds a named one (src/build/share-schemas.ts).
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { component } from "../../../src/contract-language/lazy";
import { reference } from "../../../src/contract-language/reference";
import { readOnly } from "../../../src/contract-language/schema";
import { defaultOf, isMarked } from "../../../src/engine/sandbox/values";

describe("the sandbox's reading of a member through a reference", () => {
  it("finds a read-only mark (OpenAPI 3.1 §4.8.24.1) and a default the named schema carries", () => {
    const FixtureId = component(() => readOnly(z.string()));
    const FixtureSize = component(() => z._default(z.int(), 3));
    expect(isMarked(z.optional(FixtureId()), "readOnly")).toBe(true);
    expect(isMarked(z.optional(reference(FixtureId)), "readOnly")).toBe(true);
    expect(isMarked(z.optional(reference(FixtureSize)), "readOnly")).toBe(false);
    expect(defaultOf(z.optional(reference(FixtureSize)))).toEqual({ value: 3 });
    expect(defaultOf(reference(FixtureId))).toBeUndefined();
  });
});
