/**
 * The problem catalogue (RFC 9457 problem types, each declared once) and what is derived
 * from it: the schema names a resource may not take (refused by the compiler and again
 * when the app starts), the failures part 7 may present and the members the platform
 * fills in each, and the slugs part 7 may not take.
 */

import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { defineContract } from "../../src/contract-language/define-contract";
import {
  filledMembers,
  PLATFORM_PROBLEMS,
  PROBLEM_CATALOGUE,
  RESERVED_PROBLEM_SLUGS,
} from "../../src/contract-language/problem-catalogue";
import { RESERVED_SCHEMA_NAMES } from "../../src/contract-language/reserved";
import { ENGINE_PROBLEM_SLUGS } from "../support/catalogue";

describe("the problem catalogue", () => {
  it("declares each slug and each problem type's schema name once", () => {
    const slugs = PROBLEM_CATALOGUE.map((entry) => entry.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    // Only the about:blank failures (RFC 9457 §4.2.1) share a schema: the plain Problem.
    const typed = PROBLEM_CATALOGUE.filter((entry) => !("uri" in entry));
    const names = typed.map((entry) => entry.schemaName);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of PROBLEM_CATALOGUE.filter((e) => "uri" in e))
      expect(entry.schemaName).toBe("Problem");
  });

  it("derives the failures part 7 may present, and the members the platform fills in each", () => {
    expect(PLATFORM_PROBLEMS).toEqual(
      PROBLEM_CATALOGUE.filter((entry) => entry.presentable).map((entry) => entry.slug),
    );
    expect(filledMembers("validation-failed")).toEqual(["errors"]);
    expect(filledMembers("rate-limit-exceeded")).toEqual(["limit", "maxRequests", "periodSeconds"]);
    expect(filledMembers("not-found")).toEqual([]);
  });

  it("reserves every hosted type's slug, the engine's ones included, from part 7", () => {
    for (const slug of ["interface-not-specified", ...ENGINE_PROBLEM_SLUGS])
      expect(RESERVED_PROBLEM_SLUGS).toContain(slug);
    expect(RESERVED_PROBLEM_SLUGS).not.toContain("not-found");
  });
});

describe("a resource named like a problem schema the service may document", () => {
  const names = [...new Set(PROBLEM_CATALOGUE.map((entry) => entry.schemaName))];

  it("covers every entry of the catalogue (14 of the engine's among them)", () => {
    expect(ENGINE_PROBLEM_SLUGS).toHaveLength(14);
    for (const name of names) expect(RESERVED_SCHEMA_NAMES).toContain(name);
  });

  // A contract the compiler did not see (an import, a cast): refused when the app starts.
  it.each(names)("%s is refused when the app starts", (name) => {
    const contract = defineContract({ resources: { FixtureOk: z.object({}) } });
    const clashing = { ...contract, resources: { [name]: z.object({}) } };
    expect(() => createApp(clashing, { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema })).toThrow(
      `resource ${name}: the platform names one of its own schemas so`,
    );
  });

  it("does not compile (the type is derived from the catalogue too)", () => {
    // @ts-expect-error StateConflictProblem is the schema of part 3's 409
    defineContract({ resources: { StateConflictProblem: z.object({}) } });
    // @ts-expect-error VersionGoneProblem is the schema of part 9's 410
    defineContract({ resources: { VersionGoneProblem: z.object({}) } });
    // @ts-expect-error InterfaceNotSpecifiedProblem is the schema of part 4's 501
    defineContract({ resources: { InterfaceNotSpecifiedProblem: z.object({}) } });
  });
});
