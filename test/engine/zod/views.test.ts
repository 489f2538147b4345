/**
 * One schema for both directions (OpenAPI 3.1 §4.8.24.1): read-only members are not
 * required in requests, write-only members not in answers, at any depth, and the types a
 * handler sees say the same. Through the FIXTURE vocabulary app inside workerd, and on
 * the views directly.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod/mini";
import { safeParse } from "zod/v4/core";
import type {
  OperationInput,
  OperationResult,
} from "../../../src/contract-language/define-handlers";
import { component } from "../../../src/contract-language/lazy";
import { reference } from "../../../src/contract-language/reference";
import { readOnly, writeOnly } from "../../../src/contract-language/schema";
import { viewOf } from "../../../src/engine/zod/views";
import { FIXTURE_ROTATED_SECRETS, FIXTURE_VOCABULARY_CONTRACT } from "../../fixtures/vocabulary";
import { expectProblem } from "../../support/assertions";
import { callVocabulary, withKey } from "../../support/vocabulary-app";

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("through the app (responses checked in enforce mode)", () => {
  it("a request may leave out a read-only member (the id the server sets)", async () => {
    const res = await callVocabulary(
      "/fixture-pets",
      withKey(FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY, json({ name: "Rex" })),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: "p1", name: "Rex" });
  });

  it("an answer may leave out a write-only member, and passes its check", async () => {
    const payment = { amount: 120, cardNumber: "4111111111111111", securityCode: "123" };
    const res = await callVocabulary("/fixture-payments", json(payment));
    expect(res.status).toBe(201);
    const answer = await res.json();
    expect(answer).toEqual({ id: "pay1", amount: 120, cardNumber: "****1111" });
    // Checked against the schema itself, the masked answer would fail: the view is what passes it.
    const { FixturePayment } = FIXTURE_VOCABULARY_CONTRACT.resources;
    expect(safeParse(FixturePayment, answer).success).toBe(false);
  });

  it("a write-only member is still required in requests", async () => {
    const body = await expectProblem(
      await callVocabulary("/fixture-payments", json({ amount: 1, cardNumber: "1" })),
      400,
    );
    expect(body.errors).toEqual([
      { in: "body", pointer: "#/securityCode", detail: "Is required." },
    ]);
  });
});

describe("the views, at any depth", () => {
  const Node = z.object({
    id: readOnly(z.string()),
    secret: writeOnly(z.string()),
    get children(): z.ZodMiniOptional<z.ZodMiniArray<typeof Node>> {
      return z.optional(z.array(Node));
    },
  });
  const Page = z.object({ items: z.array(z.union([Node, z.null()])), total: z.int() });

  it("make read-only members optional in requests, in nested arrays, unions and recursion", () => {
    const request = viewOf(Page, "request");
    const value = { items: [{ secret: "s", children: [{ secret: "t" }] }, null], total: 1 };
    expect(safeParse(request, value).success).toBe(true);
    expect(safeParse(Page, value).success).toBe(false);
    // Write-only members stay required in requests.
    expect(safeParse(request, { items: [{ id: "x" }], total: 1 }).success).toBe(false);
  });

  it("make write-only members optional in answers, and keep read-only ones required", () => {
    const response = viewOf(Page, "response");
    expect(
      safeParse(response, { items: [{ id: "a", children: [{ id: "b" }] }], total: 1 }).success,
    ).toBe(true);
    expect(safeParse(response, { items: [{ children: [] }], total: 1 }).success).toBe(false);
  });

  it("honour zod's own meta({ readOnly: true }) too", () => {
    const schema = z.object({ id: z.string().check(z.meta({ readOnly: true })), name: z.string() });
    expect(safeParse(viewOf(schema, "request"), { name: "x" }).success).toBe(true);
  });

  it("make the view of every schema of a cycle whose mark is reached through another member", () => {
    // `Loop` holds no mark itself and reaches one only through `leaf`; `Back` reaches it only
    // through `Loop`, so the walk meets `Back` while `Loop` is still open.
    const Leaf = z.object({ x: readOnly(z.string()) });
    const Loop = z.object({
      get back(): z.ZodMiniOptional<typeof Back> {
        return z.optional(Back);
      },
      leaf: Leaf,
    });
    const Back = z.object({
      get loop(): z.ZodMiniOptional<typeof Loop> {
        return z.optional(Loop);
      },
    });
    const value = { back: { loop: { leaf: {} } }, leaf: {} };
    expect(safeParse(viewOf(Loop, "request"), value).success).toBe(true);
    expect(safeParse(Loop, value).success).toBe(false);
  });

  it("make the view through a z.lazy already read (zod keeps a lazy's target on its def)", () => {
    const Tree: z.ZodMiniObject = z.object({
      id: readOnly(z.string()),
      children: z.optional(z.array(z.lazy(() => Tree))),
    });
    // Parsed before its view is made, as a handler's answer is: the lazy has read its target.
    expect(safeParse(Tree, { id: "a", children: [{ id: "b" }] }).success).toBe(true);
    const value = { children: [{ children: [] }] };
    expect(safeParse(viewOf(Tree, "request"), value).success).toBe(true);
  });

  /** Two schemas that reach one object through a lazy schema, and how often its target was built. */
  const throughLazy = () => {
    const built = { count: 0 };
    const Inner = z.object({ c: z.int() });
    const Shared = z.object({
      a: z.string(),
      inner: z.lazy(() => {
        built.count += 1;
        return Inner;
      }),
    });
    return { built, first: z.object({ s: Shared }), second: z.object({ t: Shared }) };
  };

  it("walk each schema once per isolate, however many schemas reach it", () => {
    const { built, first, second } = throughLazy();
    expect(viewOf(first, "request")).toBe(first);
    expect(viewOf(second, "request")).toBe(second);
    expect(built.count).toBe(1);
  });

  it("build no lazy schema's target to check a value, only when a value reaches it", () => {
    const { built, first, second } = throughLazy();
    const views = [
      viewOf(first, "request", "checking"),
      viewOf(second, "request", "checking"),
    ] as const;
    expect(built.count).toBe(0);
    expect(safeParse(views[0], { s: { a: "x", inner: { c: 1 } } }).success).toBe(true);
    expect(safeParse(views[1], { t: { a: "x", inner: { c: "1" } } }).success).toBe(false);
    expect(built.count).toBe(1);
    const shape = (view: unknown) =>
      (view as { _zod: { def: { shape: Record<string, unknown> } } })._zod.def.shape;
    expect(shape(views[0]).s).toBe(shape(views[1]).t);
  });

  it("make the view of a reference when a value reaches it: a read-only member at depth (OpenAPI 3.1 §4.8.24.1)", () => {
    let built = 0;
    const Owner = component(() => {
      built += 1;
      return z.object({ id: readOnly(z.string()), name: z.string() });
    });
    const Pet = z.object({ name: z.string(), owner: z.optional(reference(Owner)) });
    const request = viewOf(Pet, "request", "checking");
    expect(built).toBe(0);
    expect(safeParse(request, { name: "a", owner: { name: "b" } }).success).toBe(true);
    expect(safeParse(Pet, { name: "a", owner: { name: "b" } }).success).toBe(false);
    expect(safeParse(request, { name: "a", owner: { id: "c" } }).success).toBe(false);
    expect(built).toBe(1);
  });

  it("leave a schema without marks as it is, at no cost", () => {
    const plain = z.object({ a: z.string(), b: z.array(z.object({ c: z.int() })) });
    expect(viewOf(plain, "request")).toBe(plain);
    expect(viewOf(plain, "response")).toBe(plain);
  });

  it("keep the marks in the JSON Schema the document shows", () => {
    const json = z.toJSONSchema(FIXTURE_VOCABULARY_CONTRACT.resources.FixturePayment) as {
      properties: Record<string, { readOnly?: boolean; writeOnly?: boolean }>;
    };
    expect(json.properties.id?.readOnly).toBe(true);
    expect(json.properties.securityCode?.writeOnly).toBe(true);
  });
});

describe("the types a handler sees", () => {
  type Ops = typeof FIXTURE_VOCABULARY_CONTRACT.operations;

  it("a read-only member is optional in the body a handler receives", () => {
    type Body = NonNullable<OperationInput<Ops["fixtureCreatePet"]>["body"]>["value"];
    expectTypeOf<Body["id"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Body["name"]>().toEqualTypeOf<string>();
  });

  it("a write-only member is optional in the body a handler answers", () => {
    type Answer = Extract<OperationResult<Ops["fixturePay"]>, { status: 201 }>["body"];
    expectTypeOf<Answer["securityCode"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Answer["id"]>().toEqualTypeOf<string>();
  });
});
