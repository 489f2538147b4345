/**
 * Handlers are typed from their operation's declaration. These checks run in `tsc` (npm
 * run typecheck): an `expectTypeOf` that does not hold, or a `@ts-expect-error` line that
 * is no longer an error, fails the build.
 */
import { describe, expectTypeOf, it } from "vitest";
import {
  defineHandlers,
  type HandlerContext,
  type OperationInput,
  type OperationResult,
} from "../../src/contract-language/define-handlers";
import { FIXTURE_OPERATIONS_CONTRACT as FIXTURE } from "../fixtures/operations";
import { FIXTURE_VOCABULARY_CONTRACT } from "../fixtures/vocabulary";

type Ops = typeof FIXTURE.operations;

describe("handler types", () => {
  it("gives a handler the schemas' output for each request part", () => {
    expectTypeOf<OperationInput<Ops["fixtureCreateWidget"]>["body"]>().toEqualTypeOf<{
      readonly mediaType: "application/json";
      readonly value: { name: string; size: number };
    }>();
    // zod's coercion: the query string "5" reaches the handler as the number 5.
    expectTypeOf<OperationInput<Ops["fixtureListWidgets"]>["query"]>().toEqualTypeOf<{
      limit?: number | undefined;
    }>();
    // zod/mini schemas type the same way.
    expectTypeOf<OperationInput<Ops["fixtureGetWidget"]>["params"]>().toEqualTypeOf<{
      id: string;
    }>();
    expectTypeOf<OperationInput<Ops["fixtureGetWidget"]>["body"]>().toEqualTypeOf<undefined>();
  });

  it("accepts exactly the declared statuses as results", () => {
    expectTypeOf<OperationResult<Ops["fixtureGetWidget"]>["status"]>().toEqualTypeOf<200 | 404>();
  });

  it("refuses an undeclared status, a wrong body, a body where none is declared, an unknown id", () => {
    defineHandlers(FIXTURE, {
      // @ts-expect-error 500 is not a declared response of fixtureCreateWidget
      fixtureCreateWidget: () => ({ status: 500 }),
      // @ts-expect-error the 200 body must be a FixtureWidget
      fixtureGetWidget: () => ({ status: 200, body: { id: 1 } }),
      // @ts-expect-error 204 declares no body
      fixtureDeleteWidget: () => ({ status: 204, body: "gone" }),
    });
    defineHandlers(FIXTURE, {
      // @ts-expect-error no operation has this id
      fixtureNoSuchOperation: () => ({ status: 200 }),
    });
  });
});

describe("handler types of the vocabulary", () => {
  it("answer only the error types the operation declares, with their members typed", () => {
    defineHandlers(FIXTURE_VOCABULARY_CONTRACT, {
      fixtureCreatePet: () => ({ error: "FixturePetTaken", members: { takenBy: "p0" } }),
    });
    defineHandlers(FIXTURE_VOCABULARY_CONTRACT, {
      // @ts-expect-error FixtureNotFound is not among fixtureCreatePet's errors
      fixtureCreatePet: () => ({ error: "FixtureNotFound" }),
    });
    defineHandlers(FIXTURE_VOCABULARY_CONTRACT, {
      // @ts-expect-error takenBy must be a string
      fixtureCreatePet: () => ({ error: "FixturePetTaken", members: { takenBy: 7 } }),
    });
  });

  it("answer a body every media type the platform may choose can be written from", () => {
    const pet = { id: "p1", name: "Rex" };
    defineHandlers(FIXTURE_VOCABULARY_CONTRACT, {
      // @ts-expect-error Accept may choose text/plain, which an object cannot be written as
      fixtureGetPet: () => ({ status: 200, body: pet }),
    });
    defineHandlers(FIXTURE_VOCABULARY_CONTRACT, {
      // JSON and XML (OpenAPI's xml object on the same schema) are written from one object.
      fixtureGetPet: () => ({ status: 200, mediaType: "application/xml", body: pet }),
      // Both answers of fixtureShelve are the same object schema: no mediaType is needed.
      fixtureShelve: () => ({ status: 200, body: { id: 1, label: "FIXTURE", books: [] } }),
    });
    defineHandlers(FIXTURE_VOCABULARY_CONTRACT, {
      // @ts-expect-error an XML answer is the schema's object, not XML text
      fixtureGetPet: () => ({ status: 200, mediaType: "application/xml", body: "<pet/>" }),
    });
  });

  it("receive who was let in, typed by the operation's requirements, and media types by status", () => {
    type Ops = typeof FIXTURE_VOCABULARY_CONTRACT.operations;
    expectTypeOf<HandlerContext<Ops["fixturePay"]>["auth"]>().toEqualTypeOf<undefined>();
    expectTypeOf<
      NonNullable<HandlerContext<Ops["fixtureLegacyPet"]>["auth"]>["schemes"]
    >().toEqualTypeOf<readonly "fixtureRotated"[]>();
    expectTypeOf<ReturnType<HandlerContext<Ops["fixtureGetPet"]>["mediaTypeFor"]>>().toEqualTypeOf<
      "application/json" | "application/xml" | "text/plain" | undefined
    >();
  });
});
