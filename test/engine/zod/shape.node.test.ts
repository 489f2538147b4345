/**
 * The members of a composed schema (src/engine/zod/shape.ts): an `allOf` of objects, as a
 * document composes a resource from a base and its own members.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { membersOf } from "../../../src/engine/zod/shape";

describe("the members of an intersection of objects (OpenAPI's allOf)", () => {
  it("are both sides', a member either side requires required (a value satisfies both)", () => {
    // FIXTURE: a base where `checksum` is optional, extended by a part requiring it.
    const base = z.object({ name: z.string(), checksum: z.optional(z.string()) });
    const extension = z.object({ checksum: z.string(), key: z.string() });
    for (const composed of [z.intersection(base, extension), z.intersection(extension, base)]) {
      const members = membersOf(composed) ?? {};
      expect(Object.keys(members).sort()).toEqual(["checksum", "key", "name"]);
      expect(members.checksum?._zod.optin).toBeUndefined();
    }
  });

  it("are none for a schema that is no object nor intersection of objects", () => {
    expect(membersOf(z.string())).toBeUndefined();
    expect(membersOf(z.intersection(z.object({}), z.string()))).toBeUndefined();
  });
});
