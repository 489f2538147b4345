/**
 * Schemas built on first use (src/contract-language/lazy.ts): a declaration may be a
 * function that builds its schema; `resolveSchema` builds it once, the engine when it plans
 * an operation (its first request), never when the Worker's app is created. The handler
 * types are checked by `tsc` (npm run typecheck): a function types a handler exactly as its
 * schema does.
 */
import { env } from "cloudflare:workers";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod/mini";
import { toJSONSchema } from "zod/mini";
import { createApp } from "../../src/app";
import { prepareBuild, servedFeatures } from "../../src/build/generate";
import { BUILD_ENGINE } from "../../src/build-engine";
import { component, resolveSchema } from "../../src/contract-language/contract";
import { defineContract } from "../../src/contract-language/define-contract";
import {
  defineHandlers,
  type HandlerContext,
  type OperationInput,
  type OperationResult,
} from "../../src/contract-language/define-handlers";
import type { Store } from "../../src/contract-language/handler-store";
import { type ServeOptions, serveApp } from "../../src/serve-app";
import { fixtureLazyContract, fixtureLazySchemas as schemas } from "../fixtures/lazy";

describe("resolveSchema", () => {
  it("gives a schema as it is, and builds a function's schema once: the same object at every call", () => {
    const schema = z.string();
    expect(resolveSchema(schema)).toBe(schema);
    let builds = 0;
    const declared = () => {
      builds += 1;
      return z.object({ id: z.string() });
    };
    const first = resolveSchema(declared);
    expect(resolveSchema(declared)).toBe(first);
    expect(builds).toBe(1);
    expect(resolveSchema(undefined)).toBeUndefined();
  });

  it("builds a component on its first call only, for every schema that uses it", () => {
    let builds = 0;
    const Owner = component(() => {
      builds += 1;
      return z.object({ name: z.string() });
    });
    const Pet = component(() => z.object({ owner: Owner() }));
    expect(builds).toBe(0);
    expect(Pet().shape.owner).toBe(Owner());
    expect(resolveSchema(Owner)).toBe(Owner());
    expect(builds).toBe(1);
  });
});

// The same operations with their schemas given directly: the types a handler sees must not differ.
const Owner = schemas.owner();
const Pet = schemas.pet(Owner);
const DIRECT = defineContract({
  operations: {
    fixtureGetPet: {
      method: "GET",
      path: "/fixture-pets/{id}",
      request: { params: schemas.params(), headers: schemas.trace() },
      responses: {
        200: {
          description: "FIXTURE pet",
          headers: schemas.count(),
          content: { "application/json": Pet },
        },
      },
      errors: ["FixtureNotFound"],
    },
    fixtureCreatePet: {
      method: "POST",
      path: "/fixture-pets",
      request: {
        body: {
          "application/json": { schema: Pet, examples: { rex: { value: { name: "Rex" } } } },
        },
      },
      responses: { 201: { description: "FIXTURE created", content: { "application/json": Pet } } },
      emits: ["fixturePetCreated"],
    },
  },
  events: { fixturePetCreated: { payload: Pet } },
  errors: {
    FixtureNotFound: {
      status: 404,
      title: "FIXTURE no such pet",
      members: { petId: schemas.petId() },
    },
  },
});
const LAZY = fixtureLazyContract().contract;
type Lazy = typeof LAZY;
type Direct = typeof DIRECT;
type LazyOp<K extends keyof Lazy["operations"]> = Lazy["operations"][K];
type DirectOp<K extends keyof Direct["operations"]> = Direct["operations"][K];
/**
 * The input's members, compared one by one: TypeScript relates two instances of one generic
 * interface by its type argument, not by what the members come to.
 */
type Members<T> = { [K in keyof T]: T[K] };

describe("handler types of schemas declared as functions", () => {
  it("are those of the schemas the functions build: input, answers, error members, event payloads", () => {
    expectTypeOf<Members<OperationInput<LazyOp<"fixtureGetPet">>>>().toEqualTypeOf<
      Members<OperationInput<DirectOp<"fixtureGetPet">>>
    >();
    expectTypeOf<OperationInput<LazyOp<"fixtureGetPet">>["params"]>().toEqualTypeOf<{
      id: string;
    }>();
    // A body declared with examples: its read-only id may be absent from a request.
    expectTypeOf<Members<OperationInput<LazyOp<"fixtureCreatePet">>>>().toEqualTypeOf<
      Members<OperationInput<DirectOp<"fixtureCreatePet">>>
    >();
    expectTypeOf<OperationResult<LazyOp<"fixtureGetPet">, Lazy>>().toEqualTypeOf<
      OperationResult<DirectOp<"fixtureGetPet">, Direct>
    >();
    expectTypeOf<OperationResult<LazyOp<"fixtureCreatePet">, Lazy>>().toEqualTypeOf<
      OperationResult<DirectOp<"fixtureCreatePet">, Direct>
    >();
    type Emit<O, C> = O extends LazyOp<"fixtureCreatePet"> | DirectOp<"fixtureCreatePet">
      ? C extends Lazy | Direct
        ? Parameters<HandlerContext<O, C>["emit"]>[1]
        : never
      : never;
    expectTypeOf<Emit<LazyOp<"fixtureCreatePet">, Lazy>>().toEqualTypeOf<
      Emit<DirectOp<"fixtureCreatePet">, Direct>
    >();
    expectTypeOf<OperationInput<LazyOp<"fixtureListTags">>["query"]>().toEqualTypeOf<{
      limit?: number | undefined;
    }>();
    // The sandbox's store as a handler sees it: items typed by the component's schema.
    type Item = NonNullable<Awaited<ReturnType<Store<Lazy>["FixturePet"]["get"]>>>;
    expectTypeOf<Item["id"]>().toEqualTypeOf<string>();
    expectTypeOf<Item["name"]>().toEqualTypeOf<string>();
  });

  it("refuse a wrong handler as they would with the schemas themselves", () => {
    defineHandlers(LAZY, {
      // @ts-expect-error name must be a string
      fixtureCreatePet: () => ({ status: 201, body: { id: "p1", name: 7 } }),
    });
    defineHandlers(LAZY, {
      // @ts-expect-error petId must be a string
      fixtureGetPet: () => ({ error: "FixtureNotFound", members: { petId: 7 } }),
    });
    defineContract({
      operations: {
        fixtureGetPet: {
          method: "GET",
          // @ts-expect-error the params the function builds do not name {id}
          path: "/fixture-pets/{id}",
          request: { params: () => z.object({ petId: z.string() }) },
          responses: { 200: { description: "FIXTURE" } },
        },
      },
    });
  });
});

const call = (
  app: { request: ReturnType<typeof createApp>["request"] },
  path: string,
  init?: RequestInit,
) => Promise.resolve(app.request(`https://fixture.test${path}`, init, env));

describe("a contract of schemas declared as functions, served", () => {
  it("is validated, answered and documented as its schemas say", async () => {
    const { contract, handlers } = fixtureLazyContract();
    const app = createApp(contract, {
      engine: BUILD_ENGINE,
      jsonSchema: toJSONSchema,
      handlers,
    });
    const pet = await call(app, "/fixture-pets/p1");
    expect(pet.status).toBe(200);
    expect(await pet.json()).toEqual({ id: "p1", name: "Rex" });
    const missing = await call(app, "/fixture-pets/missing");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ petId: "missing" });
    const unnamed = await call(app, "/fixture-pets", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "" }),
    });
    expect(unnamed.status).toBe(422);
    expect((await call(app, "/fixture-tags?limit=many")).status).toBe(422);
    const document = (await (await call(app, "/_service/openapi.json")).json()) as {
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        "FixtureOwner",
        "FixturePet-Input",
        "FixturePet-Output",
        "FixtureTag",
      ]),
    );
  });

  it("builds no schema when the Worker's app is created, an operation's request schemas on its first request, its answers' when one is checked", async () => {
    const { built, needed } = await prepareBuild(fixtureLazyContract().contract, {});
    // A fresh contract, as a new isolate evaluates it: what the build did is not in it.
    const fresh = fixtureLazyContract();
    const app = serveApp(fresh.contract, {
      built,
      ...servedFeatures(needed),
      handlers: fresh.handlers,
    } as ServeOptions<typeof fresh.contract>);
    expect(fresh.built).toEqual({});
    // Answered 501, the operation reads none of its answers' schemas (FixtureTag's).
    expect((await call(app, "/fixture-tags?limit=2")).status).toBe(501);
    expect(fresh.built).toEqual({});
    // A handler's answer is checked (RESPONSE_VALIDATION's default, log): built then, once.
    expect((await call(app, "/fixture-pets/p1")).status).toBe(200);
    expect((await call(app, "/fixture-pets/p2")).status).toBe(200);
    expect(fresh.built).toEqual({ FixturePet: 1, FixtureOwner: 1 });
  });
});
