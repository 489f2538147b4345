/**
 * The path's parameters as members of a new item (src/mocks/sandbox/items.ts,
 * `withPathMembers`): taken where the member is spelt the same and its schema takes the
 * value; a value the member's schema refuses (a path parameter looser than the member it
 * names) is left out, for the member to be made as its schema says.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { withPathMembers } from "../../../src/mocks/sandbox/items";
import type { SandboxResource } from "../../../src/mocks/sandbox/place";

// FIXTURE: a call under a conference whose sid has a pattern the path parameter lacks.
const shape = {
  sid: z.string(),
  conference_sid: z.string().check(z.regex(/^CF[0-9a-f]{32}$/)),
  label: z.string(),
};
const FIXTURE_PARTICIPANT: SandboxResource = {
  name: "FixtureParticipant",
  schema: z.object(shape),
  shape,
  idMember: "sid",
  idKind: "uuid",
  idParams: [],
  machines: [],
};
const SID = `CF${"0123456789abcdef".repeat(2)}`;

describe("the path's parameters as members of a new item", () => {
  it("takes a parameter's value where the member's schema takes it", () => {
    expect(withPathMembers(FIXTURE_PARTICIPANT, { label: "x" }, { ConferenceSid: SID })).toEqual({
      label: "x",
      conference_sid: SID,
    });
  });

  it("leaves out a value the member's schema refuses, for the member to be made", () => {
    expect(
      withPathMembers(FIXTURE_PARTICIPANT, { label: "x" }, { ConferenceSid: "fixture-1" }),
    ).toEqual({ label: "x" });
  });

  it("never writes the id member, nor over what the caller sent", () => {
    expect(
      withPathMembers(
        FIXTURE_PARTICIPANT,
        { label: "x", conference_sid: "sent" },
        { Sid: "fixture-2", ConferenceSid: SID },
      ),
    ).toEqual({ label: "x", conference_sid: "sent" });
  });
});
