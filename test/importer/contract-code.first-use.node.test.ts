/**
 * An imported contract builds its schemas on first use (src/contract-language/lazy.ts): a
 * generated FIXTURE document of many components and operations is imported, and every
 * call of a zod/mini factory (`z.object`, `z.string`, …) is counted. Evaluating the
 * contract's modules and creating the Worker's app (`serveApp`, with what the build made)
 * must call none; an operation's first request builds its own schemas and the components
 * they reach, and no other operation's.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { prepareBuild, servedFeatures } from "../../src/build/generate";
import type { Contract } from "../../src/contract-language/contract";
import { writeCase } from "../support/import-case";

/** Every zod/mini factory call since the last reset, and the member names of each object built. */
const zod = vi.hoisted(() => ({ calls: 0, members: new Set<string>() }));

vi.mock("zod/mini", async (importOriginal) => {
  const actual = await importOriginal<Record<string, unknown>>();
  const counted = (name: string, factory: (...args: unknown[]) => unknown) =>
    function counting(...args: unknown[]) {
      zod.calls += 1;
      const shape = args[0];
      if (/^(object|strictObject|looseObject)$/.test(name) && shape && typeof shape === "object")
        for (const member of Object.keys(shape)) zod.members.add(member);
      return factory(...args);
    };
  // Factories are the lower-case functions (classes and namespaces are left as they are).
  const wrap = (module: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(module).map(([name, value]) => [
        name,
        typeof value === "function" && /^[a-z_]/.test(name)
          ? counted(name, value as (...args: unknown[]) => unknown)
          : value,
      ]),
    );
  return { ...wrap(actual), iso: wrap(actual.iso as Record<string, unknown>) };
});

const COMPONENTS = 60;
const PATHS = 20;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * A FIXTURE document: components in chains of three (each of the first two refers to the
 * next), a recursive one, a problem schema; on each path a GET and a PUT of the chain that
 * starts at 3 × its index, sharing a path parameter; a webhook of the last component.
 */
function fixtureDocument(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < COMPONENTS; i += 1) {
    const properties: Record<string, unknown> = {
      [`thing${i}Name`]: { type: "string", minLength: 1 },
      [`thing${i}Count`]: { type: "integer", minimum: 0 },
    };
    if (i % 3 !== 2) properties[`thing${i}Next`] = ref(`FixtureThing${i + 1}`);
    schemas[`FixtureThing${i}`] = { type: "object", required: [`thing${i}Name`], properties };
  }
  schemas.FixtureNode = {
    type: "object",
    properties: {
      nodeLabel: { type: "string" },
      nodeChildren: { type: "array", items: ref("FixtureNode") },
    },
  };
  schemas.FixtureProblem = {
    type: "object",
    properties: {
      type: { type: "string" },
      title: { type: "string" },
      problemCode: { type: "string" },
    },
  };
  const thingId = { $ref: "#/components/parameters/FixtureThingId" };
  const paths: Record<string, unknown> = {};
  for (let j = 0; j < PATHS; j += 1) {
    const thing = { "application/json": { schema: ref(`FixtureThing${3 * j}`) } };
    paths[`/fixture-things-${j}/{thingId}`] = {
      get: {
        operationId: `fixtureGetThing${j}`,
        parameters: [thingId, { name: `limit${j}`, in: "query", schema: { type: "integer" } }],
        responses: {
          200: { description: "FIXTURE thing", content: thing },
          404: {
            description: "FIXTURE no such thing",
            content: { "application/problem+json": { schema: ref("FixtureProblem") } },
          },
        },
      },
      put: {
        operationId: `fixturePutThing${j}`,
        parameters: [thingId],
        requestBody: { required: true, content: thing },
        responses: { 204: { description: "FIXTURE stored" } },
      },
    };
  }
  paths["/fixture-nodes"] = {
    get: {
      operationId: "fixtureListNodes",
      responses: {
        200: {
          description: "FIXTURE nodes",
          content: { "application/json": { schema: { type: "array", items: ref("FixtureNode") } } },
        },
      },
    },
  };
  return {
    openapi: "3.1.0",
    info: { title: "FIXTURE many schemas", version: "1.0.0" },
    paths,
    webhooks: {
      fixtureThingChanged: {
        post: {
          requestBody: {
            content: { "application/json": { schema: ref(`FixtureThing${COMPONENTS - 1}`) } },
          },
          responses: { 204: { description: "FIXTURE received" } },
        },
      },
    },
    components: {
      schemas,
      parameters: {
        FixtureThingId: {
          name: "thingId",
          in: "path",
          required: true,
          schema: { type: "string", pattern: "^t[0-9]+$" },
        },
      },
    },
  };
}

/** The member names of the components an operation on path `j` reaches: its chain of three. */
const chainMembers = (j: number) =>
  [0, 1, 2].flatMap((k) => {
    const i = 3 * j + k;
    return [`thing${i}Name`, `thing${i}Count`, ...(k < 2 ? [`thing${i}Next`] : [])];
  });

describe("an imported contract of many schemas", () => {
  let index: string;
  let built: Awaited<ReturnType<typeof prepareBuild>>["built"];
  let needed: Awaited<ReturnType<typeof prepareBuild>>["needed"];

  beforeAll(async () => {
    ({ index } = await writeCase("first-use", fixtureDocument()));
    // What the build makes of it, which builds every schema: in this module instance only.
    const { contract } = (await import(index)) as { contract: Contract };
    expect(Object.keys(contract.resources)).toHaveLength(COMPONENTS + 2);
    expect(Object.keys(contract.operations)).toHaveLength(2 * PATHS + 1);
    ({ built, needed } = await prepareBuild(contract, {}));
    expect(zod.calls).toBeGreaterThan(0);
  });

  it("builds no schema while its modules are evaluated and the Worker's app is created", async () => {
    // A new isolate: the contract's modules evaluated afresh.
    vi.resetModules();
    zod.calls = 0;
    const { contract } = (await import(index)) as { contract: Contract };
    const { serveApp } = await import("../../src/serve-app");
    const app = serveApp(contract, { built, ...servedFeatures(needed) } as never);
    expect(zod.calls).toBe(0);

    // The first request of one operation builds its request's schemas; its answers' (the
    // chain of three, FixtureProblem) wait for an answer checked or made by them: a 501 is not.
    zod.members.clear();
    const answer = await app.request("https://fixture.test/fixture-things-1/t7?limit1=3");
    expect(answer.status).toBe(501);
    expect(zod.calls).toBeGreaterThan(0);
    expect([...zod.members].sort()).toEqual(["limit1", "thingId"]);

    // Its second request builds nothing; another operation builds its own on its first.
    zod.calls = 0;
    expect((await app.request("https://fixture.test/fixture-things-1/t8")).status).toBe(501);
    expect(zod.calls).toBe(0);
    zod.members.clear();
    const put = await app.request("https://fixture.test/fixture-things-4/t1", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ thing12Name: "" }),
    });
    expect(put.status).toBe(422);
    expect([...zod.members].sort()).toEqual([...chainMembers(4), "thingId"].sort());
  });
});
