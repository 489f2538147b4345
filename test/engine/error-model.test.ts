/**
 * Part 7, the spec's own error model, end to end through the FIXTURE vocabulary app: the
 * platform's failures answered as the error types that present them (RFC 9457, with the
 * spec's status, type URI and title, the platform's detail and members), a handler
 * answering a declared error type by name, and the pages of the types hosted here.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { type AppOptions, createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import type { Contract } from "../../src/contract-language/contract";
import { defineContract } from "../../src/contract-language/define-contract";
import { defineHandlers } from "../../src/contract-language/define-handlers";
import { problemTypePage } from "../../src/platform/pages";
import { FIXTURE_ROTATED_SECRETS } from "../fixtures/vocabulary";
import { expectProblem } from "../support/assertions";
import { callVocabulary, withKey } from "../support/vocabulary-app";

afterEach(() => vi.restoreAllMocks());

const KEY = FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY;
const createPet = (body: string, type = "application/json") =>
  callVocabulary(
    "/fixture-pets",
    withKey(KEY, { method: "POST", headers: { "content-type": type }, body }),
  );

describe("the platform's failures, presented as the spec's error types", () => {
  it("a validation failure is the spec's 400 of its absolute type, with the platform's violations", async () => {
    const res = await createPet(JSON.stringify({ name: "" }));
    const body = await expectProblem(res, 400);
    expect(body).toMatchObject({
      type: "https://errors.fixture.test/invalid-input",
      title: "Fixture invalid input",
      status: 400,
      errors: [{ in: "body", pointer: "#/name", detail: "Must be at least 1 characters." }],
    });
  });

  it("a malformed body is the same type (the spec says one type for both)", async () => {
    const body = await expectProblem(await createPet("{"), 400);
    expect(body.type).toBe("https://errors.fixture.test/invalid-input");
    expect(body.detail).toBe("The request body is not well-formed JSON.");
  });

  it("an unknown path is the spec's not-found type, whose page is hosted here", async () => {
    const body = await expectProblem(await callVocabulary("/fixture-nowhere"), 404);
    expect(body).toMatchObject({
      type: "/_service/problems/FixtureNotFound",
      title: "Fixture not found",
    });
  });

  it("a failure no error type presents keeps the platform's own answer", async () => {
    const res = await createPet("{}", "text/csv");
    const body = await expectProblem(res, 415);
    expect(body.type).toBe("/_service/problems/unsupported-media-type");
  });
});

describe("a handler answers a declared error type by name", () => {
  it("with its members; the platform adds status, type, title, request id, no-store and the media type", async () => {
    const res = await createPet(JSON.stringify({ name: "Taken" }));
    const body = await expectProblem(res, 409);
    expect(body).toEqual({
      type: "/_service/problems/FixturePetTaken",
      title: "Fixture pet name taken",
      status: 409,
      detail: "Another pet has that name.",
      takenBy: "p0",
      requestId: res.headers.get("x-request-id"),
    });
  });

  // FIXTURE: a handler whose error members break their schema, or name an undeclared type.
  const contract = defineContract({
    errors: {
      fixtureLocked: { status: 423, title: "Fixture locked", members: { until: z.iso.datetime() } },
    },
    operations: {
      fixtureLock: {
        method: "POST",
        path: "/fixture-lock/{kind}",
        request: { params: z.object({ kind: z.enum(["bad-member", "undeclared"]) }) },
        errors: ["fixtureLocked"],
        responses: { 204: { description: "Locked" } },
      },
    },
  });
  const app = createApp(contract, {
    engine: BUILD_ENGINE,
    jsonSchema: z.toJSONSchema,
    handlers: defineHandlers(contract, {
      fixtureLock: ({ params }) =>
        params.kind === "bad-member"
          ? { error: "fixtureLocked", members: { until: "tomorrow" } }
          : ({ error: "fixtureElsewhere" } as unknown as {
              error: "fixtureLocked";
              members: { until: string };
            }),
    }),
  });

  it.each(["bad-member", "undeclared"])(
    "is checked like any answer: %s is a 500 under enforce",
    async (kind) => {
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const res = await app.fetch(
        new Request(`https://fixture.test/fixture-lock/${kind}`, { method: "POST" }),
        env,
      );
      await expectProblem(res, 500);
      expect(String(logged.mock.calls[0]?.[0])).toContain("does not match its declaration");
    },
  );

  it("with log, a mismatched member is logged and the declared error answered", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await app.fetch(
      new Request("https://fixture.test/fixture-lock/bad-member", { method: "POST" }),
      {
        ...env,
        RESPONSE_VALIDATION: "log",
      },
    );
    const body = await expectProblem(res, 423);
    expect(body.until).toBe("tomorrow");
  });
});

describe("pages of the error types", () => {
  it("a hosted type's page shows its description and members, with no empty element", async () => {
    const res = await callVocabulary("/_service/problems/FixturePetTaken");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("FIXTURE: another pet has that name.");
    expect(html).toContain("<code>takenBy</code></dt><dd>The id of the pet with that name.</dd>");
    expect(html).not.toMatch(/<(p|dl|dd|ul)>\s*<\/\1>/);
  });

  it("a type with an absolute URI of its own has no page here (its documentation is elsewhere)", async () => {
    await expectProblem(await callVocabulary("/_service/problems/FixtureInvalidInput"), 404);
  });

  it("a type with no member beyond RFC 9457's gets no members heading", () => {
    const html = problemTypePage({
      slug: "fixture-bare",
      title: "Fixture bare",
      status: 400,
      description: "",
      members: {},
    });
    expect(html).not.toContain("<h2>Members");
    expect(html).not.toContain("<dl>");
    expect(html).toContain("no members beyond type, title, status and detail");
  });
});

describe("error types createApp refuses", () => {
  const build = (errors: object) =>
    createApp(
      { ...defineContract({}), errors } as Contract,
      { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema } as unknown as AppOptions<Contract>,
    );

  it.each([
    [
      "a relative type URI",
      { fixtureA: { status: 400, title: "A", type: "/errors/a" } },
      /absolute URI/,
    ],
    ["a status that is not an error", { fixtureA: { status: 302, title: "A" } }, /400 to 599/],
    [
      "an unknown platform failure",
      { fixtureA: { status: 400, title: "A", presents: ["fixture-failure"] } },
      /not one of the platform's failures/,
    ],
    [
      "two types presenting one failure",
      {
        fixtureA: { status: 400, title: "A", presents: ["not-found"] },
        fixtureB: { status: 404, title: "B", presents: ["not-found"] },
      },
      /already presents not-found/,
    ],
    [
      "a required member the platform cannot fill for what it presents",
      {
        fixtureA: {
          status: 400,
          title: "A",
          members: { code: z.string() },
          presents: ["validation-failed"],
        },
      },
      /no member code; declare it optional/,
    ],
    [
      "a member RFC 9457 defines",
      { fixtureA: { status: 400, title: "A", members: { detail: z.string() } } },
      /RFC 9457/,
    ],
  ])("%s", (_label, errors, message) => {
    expect(() => build(errors)).toThrow(message);
  });

  it("an error type named like a platform problem type", () => {
    expect(() => build({ "validation-failed": { status: 422, title: "x" } })).toThrow(
      /platform uses that name/,
    );
  });
});
