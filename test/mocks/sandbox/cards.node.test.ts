/**
 * The sandbox's routes as the build plans them (src/mocks/sandbox/cards.ts): a route made
 * from its card holds the schemas planning holds, object for object, and a Worker given
 * cards plans nothing.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { generatedModule, prepareBuild } from "../../../src/build/generate";
import type { Contract } from "../../../src/contract-language/contract";
import { defineContract } from "../../../src/contract-language/define-contract";
import { readOnly } from "../../../src/contract-language/schema";
import { sandboxFeature } from "../../../src/mocks/sandbox/answer";
import { routeOfCard, type SandboxCard, sandboxCards } from "../../../src/mocks/sandbox/cards";
import { placeOperations, sandboxRoute } from "../../../src/mocks/sandbox/place";
import {
  FIXTURE_SANDBOX_KEYED_CONTRACT,
  FIXTURE_SANDBOX_PETS_CONTRACT,
  FIXTURE_SANDBOX_SHELVES_CONTRACT,
  FIXTURE_SANDBOX_TENANT_CONTRACT,
} from "../../fixtures/sandbox";
import {
  FIXTURE_SANDBOX_COMPOSED_CONTRACT,
  FIXTURE_SANDBOX_ISSUES_CONTRACT,
} from "../../fixtures/sandbox-issues";

// FIXTURE: the shapes of route a card names schemas of: a page envelope with its members
// (a cursor, a total, whether more follow), an answer wrapping the item beside its links,
// a 202 answering a task, a create answering a view, ids of a pattern a path parameter
// constrains too.
const FixtureJob = z.object({
  id: readOnly(z.string().check(z.regex(/^JB[0-9a-f]{8}$/))),
  name: z.string(),
  size: z.int(),
});
const FixtureJobDraft = z.object({ name: z.string() });
const FixtureJobPosted = z.object({ id: z.optional(z.string()), name: z.string() });
const FixtureTask = z.object({ taskId: readOnly(z.string()), done: z.boolean() });
const FIXTURE_CARDS_CONTRACT = defineContract({
  purpose: { title: "Fixture jobs", summary: "A fixture service, for tests only." },
  resources: { FixtureJob, FixtureJobDraft, FixtureJobPosted, FixtureTask },
  operations: {
    fixtureListJobs: {
      method: "GET",
      path: "/fixture-jobs",
      request: {
        query: z.object({ cursor: z.optional(z.string()), name: z.optional(z.string()) }),
      },
      responses: {
        200: {
          description: "A page",
          content: {
            "application/json": z.object({
              jobs: z.array(FixtureJob),
              next_cursor: z.optional(z.string()),
              total: z.int(),
              has_more: z.boolean(),
            }),
          },
        },
      },
    },
    fixtureCreateJob: {
      method: "POST",
      path: "/fixture-jobs",
      request: { body: { "application/json": FixtureJobDraft } },
      responses: {
        201: { description: "Created", content: { "application/json": FixtureJobPosted } },
      },
    },
    fixtureGetJob: {
      method: "GET",
      path: "/fixture-jobs/{jobId}",
      request: { params: z.object({ jobId: z.string().check(z.minLength(10)) }) },
      responses: {
        200: {
          description: "The job",
          content: {
            "application/json": z.object({
              data: FixtureJob,
              links: z.object({ self: z.string() }),
            }),
          },
        },
      },
    },
    fixtureRunJob: {
      method: "POST",
      path: "/fixture-jobs/{jobId}",
      request: {
        params: z.object({ jobId: z.string() }),
        body: { "application/json": FixtureJobDraft },
      },
      responses: { 202: { description: "Enqueued", content: { "application/json": FixtureTask } } },
    },
  },
});

const CONTRACTS: readonly Contract[] = [
  FIXTURE_CARDS_CONTRACT,
  FIXTURE_SANDBOX_PETS_CONTRACT,
  FIXTURE_SANDBOX_SHELVES_CONTRACT,
  FIXTURE_SANDBOX_KEYED_CONTRACT,
  FIXTURE_SANDBOX_TENANT_CONTRACT,
  FIXTURE_SANDBOX_ISSUES_CONTRACT,
  FIXTURE_SANDBOX_COMPOSED_CONTRACT,
];

const isSchema = (value: unknown) => typeof value === "object" && value !== null && "_zod" in value;

/** `made` holds what `planned` holds: the same schema objects, equal data, no more nor less. */
function expectSame(made: unknown, planned: unknown, at: string): void {
  if (isSchema(planned) || isSchema(made)) {
    expect(made, `${at}: the same schema object`).toBe(planned);
    return;
  }
  if (typeof planned !== "object" || planned === null) {
    expect(made, at).toEqual(planned);
    return;
  }
  expect(typeof made, at).toBe("object");
  const defined = (o: object) =>
    Object.keys(o)
      .filter((k) => (o as Record<string, unknown>)[k] !== undefined)
      .sort();
  expect(defined(made as object), `${at}: its members`).toEqual(defined(planned));
  for (const key of defined(planned))
    expectSame(
      (made as Record<string, unknown>)[key],
      (planned as Record<string, unknown>)[key],
      `${at}.${key}`,
    );
}

describe("the sandbox's routes planned by the build", () => {
  it("makes from each card the route planning makes, schema for schema", () => {
    const kinds = new Set<string>();
    for (const contract of CONTRACTS) {
      const ids = Object.keys(contract.operations);
      const cards = sandboxCards(contract, ids);
      for (const id of ids) {
        const planned = sandboxRoute(contract, id);
        const text = cards[id];
        if (typeof planned === "string") {
          expect(text, id).toBeUndefined();
          continue;
        }
        expect(text, `${id} has a card`).toBeDefined();
        const made = routeOfCard(contract, id, JSON.parse(text as string) as SandboxCard);
        expectSame(made, planned, id);
        if (planned.wrap) kinds.add("wrap");
        if (planned.madeAnswer) kinds.add("made answer");
        if (planned.answerView) kinds.add("answer view");
        if (planned.list?.pageMembers.length) kinds.add("page members");
        if (planned.resource.idParams.length > 0) kinds.add("id parameters");
        if (planned.resource.idKind === "pattern") kinds.add("pattern ids");
        if (planned.resource.machines.length > 0) kinds.add("machines");
        if (planned.parent) kinds.add("parent");
      }
    }
    // Every kind of schema a route holds was compared.
    expect([...kinds].sort()).toEqual(
      [
        "answer view",
        "id parameters",
        "machines",
        "made answer",
        "page members",
        "parent",
        "pattern ids",
        "wrap",
      ].sort(),
    );
  });

  it("serves an operation as its card says and plans none without one", () => {
    const contract = FIXTURE_SANDBOX_PETS_CONTRACT;
    const cards = sandboxCards(contract, ["fixtureListPets"]);
    expect(Object.keys(cards)).toEqual(["fixtureListPets"]);
    const feature = sandboxFeature(cards);
    expect(feature.handler(contract, "fixtureListPets")).toBeTypeOf("function");
    // Planning places it, but a Worker given the build's cards does not plan: no card, no route.
    expect(typeof sandboxRoute(contract, "fixtureGetPet")).toBe("object");
    const fresh = defineContract({ ...FIXTURE_SANDBOX_PETS_CONTRACT });
    expect(sandboxFeature(cards).handler(fresh, "fixtureGetPet")).toBeUndefined();
    expect(sandboxRoute(fresh, "fixtureGetPet")).toBe("the build placed it nowhere");
  });

  it("are written by the build for each operation placed without a handler, and given to the sandbox", async () => {
    const contract = FIXTURE_SANDBOX_PETS_CONTRACT;
    const handled = { fixtureListPets: async () => ({ status: 200, body: [] }) };
    const build = await prepareBuild(contract, handled as never);
    const placed = placeOperations(contract)
      .filter(({ place, id }) => place !== "examples" && id !== "fixtureListPets")
      .map(({ id }) => id);
    expect(Object.keys(build.sandboxCards ?? {}).sort()).toEqual(placed.sort());
    const module = generatedModule(build);
    expect(module).toContain("sandbox: sandboxFeature(SANDBOX_CARDS)");
    expect(module).toMatch(/import \{[^}]*\bsandboxFeature\b[^}]*\} from "\.\.\/features";/);
    expect(module).not.toContain("SANDBOX_FEATURE");
  });

  it("hold operations named as Object's own members (`__proto__`, `constructor`) as any other", async () => {
    // FIXTURE: ids that are members of every object's prototype.
    const FixtureNote = z.object({ id: readOnly(z.int()), text: z.string() });
    const make = () =>
      defineContract({
        purpose: { title: "Fixture notes", summary: "A fixture service, for tests only." },
        resources: { FixtureNote },
        operations: {
          // A member of its own, not the literal's prototype.
          ["__proto__"]: {
            method: "GET",
            path: "/fixture-notes",
            responses: {
              200: { description: "Notes", content: { "application/json": z.array(FixtureNote) } },
            },
          },
          constructor: {
            method: "GET",
            path: "/fixture-notes/count",
            responses: { 200: { description: "A count", content: { "text/plain": z.string() } } },
          },
        },
      });
    const build = await prepareBuild(make(), {});
    const cards = build.sandboxCards ?? {};
    expect(Object.keys(cards)).toEqual(["__proto__"]);
    // The generated module's literal keeps the card as a member of its own.
    const literal = /const SANDBOX_CARDS[^=]*= (\{[\s\S]*?\n\});/.exec(generatedModule(build))?.[1];
    const evaluated = new Function(`return ${literal};`)() as Record<string, string>;
    expect(Object.hasOwn(evaluated, "__proto__")).toBe(true);
    const own = (o: object) => Object.getOwnPropertyDescriptor(o, "__proto__")?.value;
    expect(own(evaluated)).toBe(own(cards));
    // Served from that literal by a Worker's contract (planned by nobody): `constructor` is
    // Object's member, not a card.
    const served = make();
    expect(sandboxFeature(evaluated).handler(served, "__proto__")).toBeTypeOf("function");
    expect(sandboxFeature(evaluated).handler(served, "constructor")).toBeUndefined();
  });
});
