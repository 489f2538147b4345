/**
 * The import's scratch copy (src/importer/stage.ts): which operations a refusal of the
 * platform's start-up checks names, so that the import leaves those out rather than fail
 * whole. How the stage's commands are run is in stage.slow.test.ts (it spawns them).
 */
import { describe, expect, it } from "vitest";
import { refusedOperation, refusedOperations } from "../../src/importer/stage";

describe("a refusal of the platform's start-up checks", () => {
  const ids = ["fixtureGet", "fixtureGetAll", "fixture get"];

  it.each([
    [
      "operation fixtureGetAll: paths /a/:x and /a/:y differ only in parameter names",
      "fixtureGetAll",
    ],
    ["operation fixture get: GET /a is declared twice", "fixture get"],
    ["operation fixtureGet (variant 0): request.params must be an object schema", "fixtureGet"],
    ["limit pageSize, operation fixtureGet: the query schema has no parameter size", "fixtureGet"],
  ])("names the operation it refuses: %s", (reason, id) => {
    expect(refusedOperation(reason, ids)).toBe(id);
  });

  it("names none when it is about no operation of the import", () => {
    expect(refusedOperation("handler fixtureGet: no operation of that id is declared", ids)).toBe(
      undefined,
    );
    expect(refusedOperation("operation other: it repeats the parameter id", ids)).toBe(undefined);
  });
  const users = new Map([
    ["FixtureTooMany", ["fixtureGet", "fixtureGetAll"]],
    ["FixtureUnused", []],
  ]);

  it("refuses every operation that answers with the error type it names, not the whole import", () => {
    expect(
      refusedOperations(
        "error type FixtureTooMany: member status is one RFC 9457 or the platform defines",
        ids,
        users,
      ),
    ).toEqual(["fixtureGet", "fixtureGetAll"]);
    expect(
      refusedOperations("operation fixture get: GET /a is declared twice", ids, users),
    ).toEqual(["fixture get"]);
  });

  it("refuses nothing it cannot lay on operations: an error type no operation uses, or none of the import", () => {
    expect(refusedOperations("error type FixtureUnused: title is empty", ids, users)).toBe(
      undefined,
    );
    expect(refusedOperations("error type Other: title is empty", ids, users)).toBe(undefined);
  });
});
