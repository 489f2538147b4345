/**
 * Part 3 served, inside workerd with the FIXTURE states contract: every check on a bad
 * machine (at compile time where the types can see it, at start-up otherwise), the 409
 * with the triggers allowed (RFC 9110 §15.5.10), and the check that a transition's answer
 * carries the state it reached.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import type { Contract, StateMachine } from "../../../src/contract-language/contract";
import { defineContract } from "../../../src/contract-language/define-contract";
import { FIXTURE_STATES_CONTRACT, fixtureStatesHandlers } from "../../fixtures/states";
import { logsOf } from "../../support/events";

type Status = "draft" | "placed" | "shipped" | "cancelled";

function appWith(orders: Map<string, Status>, mode = "enforce") {
  const app = createApp(FIXTURE_STATES_CONTRACT, {
    engine: BUILD_ENGINE,
    handlers: fixtureStatesHandlers(orders),
    jsonSchema: z.toJSONSchema,
  });
  return (path: string) =>
    app.request(`https://fixture.test${path}`, { method: "POST" }, {
      ...env,
      RESPONSE_VALIDATION: mode,
    } as Env);
}

const machine = FIXTURE_STATES_CONTRACT.states.fixtureOrderLifecycle;
/** The FIXTURE contract with its machine changed as `change` says. */
function withMachine(change: Partial<StateMachine>): Contract {
  return {
    ...FIXTURE_STATES_CONTRACT,
    states: { fixtureOrderLifecycle: { ...machine, ...change } },
  };
}
const start = (contract: Contract) => () =>
  createApp(contract, { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema });

describe("a state machine is refused at start-up", () => {
  it("when its resource is not declared in part 2", () => {
    expect(start(withMachine({ resource: "FixtureNoSuchThing" }))).toThrow(
      /its resource FixtureNoSuchThing is not declared in part 2/,
    );
  });
  it("when its initial state, or a transition's, is not one of its states", () => {
    expect(start(withMachine({ initial: "lost" }))).toThrow(
      /initial state lost is not one of its states/,
    );
    expect(
      start(
        withMachine({
          transitions: [...machine.transitions, { from: "shipped", to: "lost", trigger: "lose" }],
        }),
      ),
    ).toThrow(/a transition uses lost/);
  });
  it("when a trigger is ambiguous from a state", () => {
    expect(
      start(
        withMachine({
          transitions: [...machine.transitions, { from: "draft", to: "shipped", trigger: "place" }],
        }),
      ),
    ).toThrow(/trigger place from draft leads to both placed and shipped/);
  });
  it("when a state cannot be reached from the initial one", () => {
    expect(
      start(withMachine({ transitions: machine.transitions.filter((t) => t.trigger !== "ship") })),
    ).toThrow(/shipped cannot be reached from draft/);
  });
  it("when its state field does not allow exactly its states, or is not a member", () => {
    const states = ["draft", "placed", "shipped", "cancelled", "returned"];
    const transitions = [
      ...machine.transitions,
      { from: "shipped", to: "returned", trigger: "return" },
    ];
    expect(start(withMachine({ states, transitions }))).toThrow(
      /FixtureOrder.status must allow exactly the machine's states/,
    );
    expect(start(withMachine({ field: "state" }))).toThrow(/FixtureOrder has no member state/);
  });
  it("when an operation's transition names an undeclared machine or trigger", () => {
    const op = FIXTURE_STATES_CONTRACT.operations.fixturePlaceOrder;
    const withTransition = (transition: { machine: string; trigger: string }): Contract => ({
      ...FIXTURE_STATES_CONTRACT,
      operations: { fixturePlaceOrder: { ...op, transition } },
    });
    expect(start(withTransition({ machine: "fixtureNone", trigger: "place" }))).toThrow(
      /machine fixtureNone is not declared in part 3/,
    );
    expect(start(withTransition({ machine: "fixtureOrderLifecycle", trigger: "fly" }))).toThrow(
      /has no trigger fly/,
    );
  });
  it("when an operation's allowedIn names an undeclared machine, no state, or a state outside it", () => {
    const op = FIXTURE_STATES_CONTRACT.operations.fixturePlaceOrder;
    const withAllowed = (allowedIn: { machine: string; states: string[] }): Contract => ({
      ...FIXTURE_STATES_CONTRACT,
      operations: { fixturePlaceOrder: { ...op, allowedIn } },
    });
    expect(start(withAllowed({ machine: "fixtureNone", states: ["draft"] }))).toThrow(
      /allowedIn names machine fixtureNone, which part 3 does not declare/,
    );
    expect(start(withAllowed({ machine: "fixtureOrderLifecycle", states: [] }))).toThrow(
      /allowedIn names no state of fixtureOrderLifecycle/,
    );
    expect(start(withAllowed({ machine: "fixtureOrderLifecycle", states: ["lost"] }))).toThrow(
      /allowedIn names lost, which is not a state of fixtureOrderLifecycle/,
    );
  });
  it("and the FIXTURE machine as declared starts", () => {
    expect(start(FIXTURE_STATES_CONTRACT)).not.toThrow();
  });
});

describe("the compiler refuses what it can see", () => {
  it("an undeclared resource, a state outside the machine, a field the resource lacks, a trigger the machine lacks, an allowed state it lacks", () => {
    const Thing = z.object({ state: z.enum(["a", "b"]) });
    const refused = () => [
      defineContract({
        resources: { Thing },
        states: {
          // @ts-expect-error Other is not a part 2 resource.
          m1: { resource: "Other", states: ["a"], initial: "a", transitions: [] },
          // @ts-expect-error c is not one of the machine's states.
          m2: { resource: "Thing", states: ["a", "b"], initial: "c", transitions: [] },
          // @ts-expect-error Thing has no member named colour.
          m3: { resource: "Thing", field: "colour", states: ["a"], initial: "a", transitions: [] },
        },
      }),
      defineContract({
        resources: { Thing },
        states: {
          m: {
            resource: "Thing",
            states: ["a", "b"],
            initial: "a",
            transitions: [{ from: "a", to: "b", trigger: "go" }],
          },
        },
        operations: {
          op: {
            method: "POST",
            path: "/things",
            responses: { 204: { description: "Done" } },
            // @ts-expect-error stop is not a trigger of machine m.
            transition: { machine: "m", trigger: "stop" },
          },
          other: {
            method: "POST",
            path: "/things/other",
            responses: { 204: { description: "Done" } },
            // @ts-expect-error c is not a state of machine m.
            allowedIn: { machine: "m", states: ["a", "c"] },
          },
        },
      }),
    ];
    expect(refused).toBeTypeOf("function");
  });
});

describe("a transition, served", () => {
  it("moves the resource and answers the state reached", async () => {
    const orders = new Map<string, Status>([["o-one", "draft"]]);
    const call = appWith(orders);
    const placed = await call("/fixture-orders/o-one/place");
    expect(placed.status).toBe(200);
    expect(await placed.json()).toEqual({ id: "o-one", status: "placed" });
    expect((await call("/fixture-orders/o-one/ship")).status).toBe(200);
    expect(orders.get("o-one")).toBe("shipped");
  });

  it("answers 409 with the current state and the triggers allowed from it, changing nothing", async () => {
    const orders = new Map<string, Status>([
      ["o-draft", "draft"],
      ["o-done", "shipped"],
    ]);
    const call = appWith(orders);
    const early = await call("/fixture-orders/o-draft/ship");
    expect(early.status).toBe(409);
    expect(early.headers.get("content-type")).toBe("application/problem+json");
    expect(await early.json()).toMatchObject({
      type: "/_service/problems/state-conflict",
      status: 409,
      machine: "fixtureOrderLifecycle",
      trigger: "ship",
      currentState: "draft",
      allowedTriggers: ["place", "cancel"],
    });
    const late = await call("/fixture-orders/o-done/place");
    expect(await late.json()).toMatchObject({ currentState: "shipped", allowedTriggers: [] });
    expect([orders.get("o-draft"), orders.get("o-done")]).toEqual(["draft", "shipped"]);
  });

  it("checks that the answer carries the state reached: enforce refuses, log warns", async () => {
    const lines = await logsOf(async () => {
      const enforced = appWith(new Map([["o-wrong", "placed"]]), "enforce");
      expect((await enforced("/fixture-orders/o-wrong/ship")).status).toBe(500);
      const logged = appWith(new Map([["o-wrong", "placed"]]), "log");
      expect((await logged("/fixture-orders/o-wrong/ship")).status).toBe(200);
    });
    const mismatches = lines.filter((l) => l.includes("status is not shipped"));
    expect(mismatches).toHaveLength(2);
  });
});

describe("part 3, documented", () => {
  const app = createApp(FIXTURE_STATES_CONTRACT, {
    engine: BUILD_ENGINE,
    jsonSchema: z.toJSONSchema,
  });

  it("in OpenAPI: the machine on its resource's schema, the transition and its 409 on each operation", async () => {
    const doc = (await (await app.request("/_service/openapi.json")).json()) as {
      components: { schemas: Record<string, Record<string, unknown>> };
      paths: Record<
        string,
        { post: Record<string, unknown> & { responses: Record<string, unknown> } }
      >;
    };
    // The schema is the resource's, so the machine there does not repeat it.
    const { resource: _onTheSchema, ...declared } = machine;
    expect(doc.components.schemas.FixtureOrder?.["x-state-machines"]).toEqual([
      { name: "fixtureOrderLifecycle", ...declared },
    ]);
    const ship = doc.paths["/fixture-orders/{id}/ship"]?.post;
    expect(ship?.["x-transition"]).toEqual({
      machine: "fixtureOrderLifecycle",
      trigger: "ship",
      steps: [{ from: "placed", to: "shipped" }],
    });
    expect(ship?.responses["409"]).toBeDefined();
  });

  it("in the status report, and drawn on the interface page as inline SVG with no script or style attribute", async () => {
    const report = (await (await app.request("/_service/interface")).json()) as {
      states: unknown[];
    };
    expect(report.states).toEqual([{ name: "fixtureOrderLifecycle", ...machine }]);
    const page = await app.request("/_service/interface", { headers: { accept: "text/html" } });
    const html = await page.text();
    const svg = html.slice(html.indexOf("<svg"), html.indexOf("</svg>") + 6);
    expect(svg).toContain('role="img"');
    for (const state of machine.states) expect(svg).toContain(`>${state}</text>`);
    for (const { trigger } of machine.transitions) expect(svg).toContain(`>${trigger}</text>`);
    expect(svg).not.toMatch(/<script|style=|on[a-z]+=/i);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});
