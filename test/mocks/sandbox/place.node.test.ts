/**
 * Where the sandbox places each operation (src/mocks/sandbox/place.ts), read by path,
 * method and schemas, never by name: renaming every operation changes no place; each
 * operation it cannot serve answers from examples with the reason.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { type Contract, component, type Schema } from "../../../src/contract-language/contract";
import { defineContract } from "../../../src/contract-language/define-contract";
import { numberFromText } from "../../../src/contract-language/text";
import {
  needsSandbox,
  placeOperations,
  planSandbox,
  sandboxRoute,
} from "../../../src/mocks/sandbox/place";
import { EMPTY_CONTRACT } from "../../fixtures/contracts";
import { fixtureLazyContract } from "../../fixtures/lazy";
import {
  FIXTURE_SANDBOX_PETS_CONTRACT,
  FIXTURE_SANDBOX_SHELVES_CONTRACT,
} from "../../fixtures/sandbox";
import { FIXTURE_SECURITY_CONTRACT } from "../../fixtures/security";

const places = (contract: Contract) =>
  Object.fromEntries(placeOperations(contract).map(({ id, place }) => [id, place]));

describe("placing operations in the sandbox", () => {
  it("places each collection and item operation of the FIXTURE pets, and answers an image from examples", () => {
    expect(places(FIXTURE_SANDBOX_PETS_CONTRACT)).toEqual({
      fixtureListPets: "list",
      fixtureCreatePet: "create",
      fixtureGetPet: "read",
      fixtureReplacePet: "replace",
      fixtureUpdatePet: "update",
      fixtureDeletePet: "delete",
      fixtureAdoptPet: "transition",
      fixturePetPhoto: "examples",
    });
    const photo = placeOperations(FIXTURE_SANDBOX_PETS_CONTRACT).find(
      ({ id }) => id === "fixturePetPhoto",
    );
    expect(photo?.why).toBe(
      "its answer is in no media type the sandbox writes (JSON, XML, a form)",
    );
    const read = placeOperations(FIXTURE_SANDBOX_PETS_CONTRACT).find(
      ({ id }) => id === "fixtureGetPet",
    );
    expect(read).toEqual({
      id: "fixtureGetPet",
      place: "read",
      resource: "FixturePet",
      why: "read of the FixturePet at /fixture-pets/{petId}",
    });
  });

  it("places nested collections, ids made from a pattern, and says why a resource whose ids it cannot make is not", () => {
    const placed = placeOperations(FIXTURE_SANDBOX_SHELVES_CONTRACT);
    expect(places(FIXTURE_SANDBOX_SHELVES_CONTRACT)).toMatchObject({
      fixtureListBooks: "list",
      fixtureCreateBook: "create",
      fixtureLendBook: "transition",
      fixtureCreateCode: "create",
      fixtureCreateTicket: "examples",
    });
    expect(placed.find(({ id }) => id === "fixtureCreateTicket")?.why).toBe(
      "no id the sandbox can make satisfies FixtureTicket's member code",
    );
  });

  it("takes a format suffix and a POST that answers the item as an update (documents without PATCH)", () => {
    const Thing = z.object({ sid: z.string().check(z.regex(/^TH[0-9a-f]{8}$/)), name: z.string() });
    const thing = { "application/json": Thing };
    const form = { "application/x-www-form-urlencoded": z.object({ Name: z.string() }) };
    const params = z.object({ Sid: z.string() });
    const contract = defineContract({
      resources: { Thing },
      operations: {
        fixtureThings: {
          method: "POST",
          path: "/things.json",
          request: { body: form },
          responses: { 201: { description: "Made", content: thing } },
        },
        fixtureThing: {
          method: "GET",
          path: "/things/{Sid}.json",
          request: { params },
          responses: { 200: { description: "It", content: thing } },
        },
        fixtureRename: {
          method: "POST",
          path: "/things/{Sid}.json",
          request: { params, body: form },
          responses: { 200: { description: "Renamed", content: thing } },
        },
      },
    });
    expect(places(contract)).toEqual({
      fixtureThings: "create",
      fixtureThing: "read",
      fixtureRename: "update",
    });
  });

  it("reads a list's page size and position from their schemas, and a page counted from 0 by its name", () => {
    const Item = z.object({ id: z.int() });
    const list = (query: Schema) =>
      defineContract({
        resources: { Item },
        operations: {
          fixtureItems: {
            method: "GET",
            path: "/items",
            request: { query },
            responses: {
              200: { description: "Items", content: { "application/json": z.array(Item) } },
            },
          },
        },
      });
    const size = numberFromText(z.int().check(z.minimum(1), z.maximum(50)));
    const from = (query: Schema) =>
      planSandbox(list(query)).routes.get("fixtureItems")?.list?.position;
    const zeroUp = numberFromText(z.int().check(z.minimum(0)));
    expect(from(z.object({ Page: zeroUp, PageSize: size }))).toEqual({
      param: "Page",
      kind: "page",
      first: 0,
    });
    expect(from(z.object({ skip: zeroUp, size }))).toEqual({ param: "skip", kind: "offset" });
    const oneUp = numberFromText(z.int().check(z.minimum(1)));
    expect(from(z.object({ at: oneUp, size }))).toEqual({ param: "at", kind: "page", first: 1 });
    expect(
      planSandbox(list(z.object({ at: oneUp, size }))).routes.get("fixtureItems")?.list?.pageSize,
    ).toBe("size");
  });

  it("stores a body that extends the resource (allOf, an intersection of objects), not one that is no object", () => {
    const Item = z.object({ id: z.int(), name: z.string() });
    const withBody = (body: Schema) =>
      defineContract({
        resources: { Item },
        operations: {
          fixtureAddItem: {
            method: "POST",
            path: "/items",
            request: { body: { "application/json": body } },
            responses: { 201: { description: "Added", content: { "application/json": Item } } },
          },
        },
      });
    const extended = z.intersection(Item, z.object({ note: z.optional(z.string()) }));
    expect(places(withBody(extended))).toEqual({ fixtureAddItem: "create" });
    expect(places(withBody(z.intersection(Item, z.string())))).toEqual({
      fixtureAddItem: "examples",
    });
  });

  it("reads no name: the same contract under other operation ids is placed the same", () => {
    const renamed = {
      ...FIXTURE_SANDBOX_PETS_CONTRACT,
      operations: Object.fromEntries(
        Object.values(FIXTURE_SANDBOX_PETS_CONTRACT.operations).map((op, i) => [`op${i}`, op]),
      ),
    } as Contract;
    expect(Object.values(places(renamed))).toEqual(
      Object.values(places(FIXTURE_SANDBOX_PETS_CONTRACT)),
    );
  });

  it("places a resource that holds itself (a node and its parent, as Jellyfin's items do), and its list", () => {
    const FixtureNode: Schema = z.object({
      id: z.string(),
      parent: z.optional(z.lazy(() => FixtureNode)),
    });
    const contract = defineContract({
      resources: { FixtureNode },
      operations: {
        fixtureListNodes: {
          method: "GET",
          path: "/fixture-nodes",
          responses: {
            200: {
              description: "FIXTURE",
              content: {
                "application/json": z.object({
                  items: z.array(FixtureNode),
                  parent: z.optional(FixtureNode),
                }),
              },
            },
          },
        },
        fixtureGetNode: {
          method: "GET",
          path: "/fixture-nodes/{nodeId}",
          request: { params: z.object({ nodeId: z.string() }) },
          responses: {
            200: { description: "FIXTURE", content: { "application/json": FixtureNode } },
          },
        },
      },
    });
    expect(places(contract)).toEqual({ fixtureListNodes: "list", fixtureGetNode: "read" });
  });

  it("needs the sandbox's store only when it places an operation", () => {
    expect(needsSandbox(EMPTY_CONTRACT)).toBe(false);
    expect(needsSandbox(FIXTURE_SECURITY_CONTRACT)).toBe(false);
    expect(needsSandbox(FIXTURE_SANDBOX_SHELVES_CONTRACT)).toBe(true);
    expect(
      placeOperations(FIXTURE_SECURITY_CONTRACT).every(({ place }) => place === "examples"),
    ).toBe(true);
  });
});

describe("planning one operation, as its first call does", () => {
  it("builds only the schemas of that operation and of what it reads, not the contract's", () => {
    const { contract, built } = fixtureLazyContract();
    const create = sandboxRoute(contract, "fixtureCreatePet");
    expect(typeof create === "string" ? create : create.place).toBe("create");
    expect(built).toEqual({ FixtureOwner: 1, FixturePet: 1 });
    const tags = fixtureLazyContract();
    // Tags have no id, so the sandbox places them nowhere: found from their schema alone.
    expect(sandboxRoute(tags.contract, "fixtureListTags")).toBe(
      "the resource FixtureTag has no member that holds its id",
    );
    expect(tags.built).toEqual({ FixtureTag: 1 });
  });

  it("finds the resource a list's items are a view of among those created at its path first, building no other", () => {
    const make = () => {
      const built: Record<string, number> = {};
      const counted = <S extends Schema>(name: string, build: () => S) =>
        component(() => {
          built[name] = (built[name] ?? 0) + 1;
          return build();
        });
      const FixtureWidget = counted("FixtureWidget", () =>
        z.object({ id: z.string(), name: z.string(), size: z.number() }),
      );
      // Another resource with the members of the items, created nowhere near.
      const FixtureGadget = counted("FixtureGadget", () =>
        z.object({ id: z.string(), name: z.string() }),
      );
      const contract = defineContract({
        resources: { FixtureWidget, FixtureGadget },
        operations: {
          fixtureListWidgets: {
            method: "GET",
            path: "/fixture-widgets",
            responses: {
              200: {
                description: "FIXTURE widgets, each a summary",
                content: {
                  "application/json": () => z.array(z.object({ id: z.string(), name: z.string() })),
                },
              },
            },
          },
          fixtureCreateWidget: {
            method: "POST",
            path: "/fixture-widgets",
            request: { body: { "application/json": FixtureWidget } },
            responses: {
              201: { description: "FIXTURE made", content: { "application/json": FixtureWidget } },
            },
          },
          fixtureCreateGadget: {
            method: "POST",
            path: "/fixture-gadgets",
            request: { body: { "application/json": FixtureGadget } },
            responses: {
              201: { description: "FIXTURE made", content: { "application/json": FixtureGadget } },
            },
          },
        },
      });
      return { contract, built };
    };
    const { contract, built } = make();
    const list = sandboxRoute(contract, "fixtureListWidgets");
    expect(typeof list === "string" ? list : [list.place, list.resource.name]).toEqual([
      "list",
      "FixtureWidget",
    ]);
    expect(list).toMatchObject({ list: { view: ["id", "name"] } });
    expect(built).toEqual({ FixtureWidget: 1 });
    // As planning the whole contract places it.
    const whole = make();
    expect(planSandbox(whole.contract).routes.get("fixtureListWidgets")).toEqual(list);
  });

  it("places each operation as planning the whole contract does", () => {
    for (const contract of [FIXTURE_SANDBOX_PETS_CONTRACT, FIXTURE_SANDBOX_SHELVES_CONTRACT]) {
      const whole = planSandbox(contract);
      for (const id of Object.keys(contract.operations)) {
        const alone = sandboxRoute(contract, id);
        expect(typeof alone === "string" ? undefined : alone).toEqual(whole.routes.get(id));
      }
    }
  });
});
