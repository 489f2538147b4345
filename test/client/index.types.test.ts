/**
 * The client's types, checked by the compiler (`tsc --noEmit -p .`, which `npm test` runs):
 * each method takes exactly what its operation declares, and its answer is a union
 * discriminated by status, each body typed. Every `@ts-expect-error` below is a call that
 * must not compile: if it ever compiled, the directive itself would be the error. The calls
 * are inside functions that never run; the `it`s only name what the compiler checked.
 */
import { describe, expectTypeOf, it } from "vitest";
import * as zm from "zod/mini";
import { type AnswerOf, createClient, type Sent } from "../../src/client";
import type { MediaSchema } from "../../src/client/calls";
import { defineContract } from "../../src/contract-language/define-contract";
import type { Built } from "../../src/contract-language/lazy";
import { booleanFromText, numberFromText } from "../../src/contract-language/text";
import { FIXTURE_OPERATIONS_CONTRACT } from "../fixtures/operations";
import { FIXTURE_SECURITY_CONTRACT } from "../fixtures/security";
import { FIXTURE_VERSIONS_CONTRACT } from "../fixtures/versions";
import { FIXTURE_VOCABULARY_CONTRACT } from "../fixtures/vocabulary";

const api = createClient(FIXTURE_OPERATIONS_CONTRACT, { baseUrl: "https://fixture.test" });
const vocabulary = createClient(FIXTURE_VOCABULARY_CONTRACT, { baseUrl: "https://fixture.test" });
const versions = createClient(FIXTURE_VERSIONS_CONTRACT, { baseUrl: "https://fixture.test" });

type Widget = { id: string; name: string; size: number };

describe("what a call takes", () => {
  it("refuses an undeclared parameter, a missing one, a missing body and a body of the wrong type", () => {
    const _calls = () => [
      // @ts-expect-error: `idd` is not a member of the path's params.
      api.fixtureGetWidget({ params: { idd: "w1" } }),
      // @ts-expect-error: the path's `id` is required.
      api.fixtureGetWidget({}),
      // @ts-expect-error: the body is required.
      api.fixtureCreateWidget({}),
      // @ts-expect-error: `name` is a string.
      api.fixtureCreateWidget({ body: { name: 1, size: 1 } }),
      // @ts-expect-error: the query's dryRun is "true" or "false".
      api.fixtureCreateWidget({ body: { name: "a", size: 1 }, query: { dryRun: "maybe" } }),
      // @ts-expect-error: the operation takes no body.
      api.fixtureDeleteWidget({ params: { id: "w1" }, body: { name: "a" } }),
      // @ts-expect-error: no such operation.
      api.fixtureMissing(),
    ];
    expectTypeOf(api.fixtureListWidgets).toBeCallableWith();
    expectTypeOf(api.fixtureListWidgets).toBeCallableWith({ query: { limit: 5 } });
  });

  it("leaves out a query parameter read from text that has a default, as a create call does (issue 42 §5)", () => {
    // FIXTURE: a create whose query has a numeric and a boolean parameter with defaults.
    const defaulted = createClient(
      defineContract({
        purpose: { title: "Fixture", summary: "A fixture service, for tests only." },
        operations: {
          fixtureCreateThing: {
            method: "POST",
            path: "/fixture-things",
            request: {
              query: zm.object({
                limit: numberFromText(zm._default(zm.int(), 10)),
                dryRun: booleanFromText(zm._default(zm.boolean(), false)),
                count: numberFromText(zm.int()),
              }),
            },
            responses: { 204: { description: "FIXTURE: created" } },
          },
        },
      }),
      { baseUrl: "https://fixture.test" },
    );
    expectTypeOf(defaulted.fixtureCreateThing).toBeCallableWith({ query: { count: 1 } });
    expectTypeOf(defaulted.fixtureCreateThing).toBeCallableWith({
      query: { count: 1, limit: 5, dryRun: true },
    });
    // @ts-expect-error: `count` has no default: it must be sent.
    const _missing = () => defaulted.fixtureCreateThing({ query: {} });
  });

  it("takes a body in each declared media type, named when there are several", () => {
    const _calls = () => [
      // @ts-expect-error: two media types: which one must be said.
      vocabulary.fixtureShelve({ body: "<shelf/>" }),
      // @ts-expect-error: text/plain is not one of them.
      vocabulary.fixtureShelve({ contentType: "text/plain", body: "x" }),
      // @ts-expect-error: an XML body is sent as its text.
      vocabulary.fixtureShelve({ contentType: "application/xml", body: { id: 1 } }),
    ];
    expectTypeOf(vocabulary.fixtureShelve).toBeCallableWith({
      contentType: "application/xml",
      body: "<shelf/>",
    });
    // A body that may be left out (bodyRequired: false), bytes when given.
    expectTypeOf(vocabulary.fixtureBinary).toBeCallableWith();
    expectTypeOf(vocabulary.fixtureBinary).toBeCallableWith({ body: new Uint8Array() });
  });

  it("leaves read-only members out of what is sent (OpenAPI 3.1 §4.8.24.1), and reads numbers from text", () => {
    expectTypeOf(vocabulary.fixtureCreatePet).toBeCallableWith({ body: { name: "Rex" } });
    expectTypeOf(vocabulary.fixtureStatuses).toBeCallableWith({ query: { status: 404 } });
    const _calls = () => [
      // @ts-expect-error: the payment's write-only code is a string.
      vocabulary.fixturePay({ body: { amount: 1, cardNumber: "4", securityCode: 123 } }),
    ];
  });

  it("takes only part 9's versions, part 5's schemes and the declared answer media types", () => {
    const _calls = () => [
      // @ts-expect-error: v9 is not a version of part 9.
      versions.fixtureEveryVersion({}, { version: "v9" }),
      // @ts-expect-error: no such scheme in part 5.
      createClient(FIXTURE_SECURITY_CONTRACT, { baseUrl: "x", credentials: { nope: "k" } }),
      // @ts-expect-error: the operation never answers CSV.
      api.fixtureListWidgets({}, { accept: "text/csv" }),
    ];
    // Each variant's body (v1: name, v2: title).
    expectTypeOf(versions.fixtureCreateThing).toBeCallableWith({ body: { name: "n" } });
    expectTypeOf(versions.fixtureCreateThing).toBeCallableWith({ body: { title: "t" } });
  });
});

describe("schemas declared lazily (a function that returns the schema)", () => {
  it("type a thunk as the schema it returns, in a media type's declaration too", () => {
    const widget = FIXTURE_OPERATIONS_CONTRACT.resources.FixtureWidget;
    expectTypeOf<Built<() => typeof widget>>().toEqualTypeOf<typeof widget>();
    expectTypeOf<Built<typeof widget>>().toEqualTypeOf<typeof widget>();
    expectTypeOf<MediaSchema<{ schema: () => typeof widget }>>().toEqualTypeOf<typeof widget>();
    expectTypeOf<Sent<Built<() => typeof widget>>>().toEqualTypeOf<Widget>();
  });
});

describe("what a call answers", () => {
  type GetWidget = AnswerOf<typeof FIXTURE_OPERATIONS_CONTRACT, "fixtureGetWidget">;

  it("a union over the declared answers and the platform's own problems, by status", () => {
    expectTypeOf<GetWidget["status"]>().toEqualTypeOf<200 | 404 | 406 | 415 | 422 | 500 | 501>();
    type Created = AnswerOf<typeof FIXTURE_OPERATIONS_CONTRACT, "fixtureCreateWidget">;
    expectTypeOf<Created["status"]>().toEqualTypeOf<
      201 | 400 | 406 | 413 | 415 | 422 | 500 | 501
    >();
    // Part 5 and part 8: 401, 403 with scopes, 429 under a rate limit, 503 for an issuer.
    type Counted = AnswerOf<typeof FIXTURE_SECURITY_CONTRACT, "fixtureCounted">;
    expectTypeOf<Counted["status"]>().toEqualTypeOf<200 | 401 | 406 | 415 | 429 | 500 | 501>();
    type Pet = AnswerOf<typeof FIXTURE_VOCABULARY_CONTRACT, "fixtureGetPet">;
    expectTypeOf<403 | 503>().toExtend<Pet["status"]>();
  });

  it("types each body by its status once narrowed, and refuses a status never answered", () => {
    const _read = async () => {
      const answer = await api.fixtureGetWidget({ params: { id: "w1" } });
      if (answer.status === 200) {
        expectTypeOf(answer.body).toEqualTypeOf<Widget>();
        expectTypeOf(answer.mediaType).toEqualTypeOf<"application/json">();
      }
      if (answer.status === 404) expectTypeOf(answer.body).toEqualTypeOf<undefined>();
      if (answer.status === 422) {
        expectTypeOf(answer.body.type).toEqualTypeOf<"/_service/problems/validation-failed">();
        expectTypeOf(answer.body.errors[0]?.in).toEqualTypeOf<
          "path" | "query" | "header" | "cookie" | "body" | undefined
        >();
      }
      if (answer.status === 404) {
        // @ts-expect-error: a 404 of this operation has no body to read a name from.
        answer.body.name;
      }
      // @ts-expect-error: the operation never answers 418.
      if (answer.status === 418) return;
    };
  });

  it("types part 7: a declared error type's members, and a failure it presents under its own status", () => {
    const _read = async () => {
      const created = await vocabulary.fixtureCreatePet({ body: { name: "Rex" } });
      if (created.status === 409) expectTypeOf(created.body.takenBy).toEqualTypeOf<string>();
      // validation-failed is presented as FixtureInvalidInput's 400: no 422 is answered.
      // @ts-expect-error: presented, the 422 is a 400.
      if (created.status === 422) return;
      const statuses = await vocabulary.fixtureStatuses({ query: { status: 200 } });
      // A range or default lets the status be any number.
      expectTypeOf(statuses.status).toEqualTypeOf<number>();
    };
  });
});
