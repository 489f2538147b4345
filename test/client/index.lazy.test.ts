/**
 * The typed client on a contract whose schemas are declared as functions built on first use
 * (src/contract-language/lazy.ts): it reads every declaration as the server does, through
 * `resolveSchema` and `schemaOf`, so a function's schema is built once and is the same
 * object the server validates with; it builds nothing when it is created; its types are
 * those of the schemas the functions build. Called as a Workers service binding of the
 * FIXTURE lazy app, served as the deployed Worker serves it (from what the build made).
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod/mini";
import { prepareBuild, servedFeatures } from "../../src/build/generate";
import { createClient } from "../../src/client";
import { mediaSchema } from "../../src/client/request";
import { schemaOf } from "../../src/contract-language/contract";
import type { ResponseValue } from "../../src/contract-language/schema";
import { type ServeOptions, serveApp } from "../../src/serve-app";
import { fixtureLazyContract } from "../fixtures/lazy";
import { bindingOf } from "../support/client-binding";

describe("a client of a contract whose schemas are functions (FIXTURE lazy)", () => {
  it("builds nothing when created; calls, reads and checks answers with the schemas the functions build", async () => {
    const { built, needed } = await prepareBuild(fixtureLazyContract().contract, {});
    // A fresh contract, as a caller's process and a new isolate evaluate it.
    const fresh = fixtureLazyContract();
    const app = serveApp(fresh.contract, {
      built,
      ...servedFeatures(needed),
      handlers: fresh.handlers,
    } as ServeOptions<typeof fresh.contract>);
    const binding = bindingOf(app);
    const api = createClient(fresh.contract, { binding, checkAnswers: true });
    const { FixturePet } = fresh.contract.resources;
    expect(fresh.built).toEqual({});

    const pet = await api.fixtureGetPet({
      params: { id: "p1" },
      headers: { "x-fixture-trace": "t1" },
    });
    expect(pet).toMatchObject({ status: 200, body: { id: "p1", name: "Rex" } });
    // Typed as the schema the component builds: what it answers (write-only members may be absent).
    if (pet.status === 200)
      expectTypeOf(pet.body).toEqualTypeOf<ResponseValue<ReturnType<typeof FixturePet>>>();
    expect(binding.sent.at(-1)?.headers.get("x-fixture-trace")).toBe("t1");

    // Part 7's error type, whose member is a function too.
    const missing = await api.fixtureGetPet({ params: { id: "missing" } });
    expect(missing).toMatchObject({ status: 404, body: { petId: "missing" } });

    // A query member read as a number by the server (numberFromText) is written as text.
    const tags = await api.fixtureListTags({ query: { limit: 2 } });
    expect(new URL(binding.sent.at(-1)?.url ?? "").search).toBe("?limit=2");
    expect(tags.status).toBe(501);

    const created = await api.fixtureCreatePet({ body: { name: "Rex" } });
    expect(created.status).toBe(501);
    // Client and server read the same schemas: each component was built once, for both;
    // FixtureTag, only in an answer neither read (a 501), never.
    expect(fresh.built).toEqual({ FixturePet: 1, FixtureOwner: 1 });
  });

  it("does not compile a call with a member the function's schema does not declare", () => {
    const api = createClient(fixtureLazyContract().contract, { baseUrl: "https://fixture.test" });
    const _calls = () => [
      // @ts-expect-error: `idd` is not a member of the params the function builds.
      api.fixtureGetPet({ params: { idd: "p1" } }),
      // @ts-expect-error: `name` must be text, as the body's schema says.
      api.fixtureCreatePet({ body: { name: 1 } }),
    ];
    expect(_calls).toBeTypeOf("function");
  });

  it("reads a function's schema once, the same object at every read, as schemaOf does", () => {
    let builds = 0;
    const declared = () => {
      builds += 1;
      return z.object({ name: z.string() });
    };
    const schema = mediaSchema(declared);
    expect(mediaSchema(declared)).toBe(schema);
    expect(mediaSchema({ schema: declared })).toBe(schema);
    expect(schemaOf(declared)).toBe(schema);
    expect(builds).toBe(1);
    expect(mediaSchema(undefined)).toBeUndefined();
  });
});
