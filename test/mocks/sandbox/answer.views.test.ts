/**
 * Lists whose items are a view of the resource (src/mocks/sandbox/place.ts): a summary
 * holding some of its members, or the base schema an `allOf` resource extends. The sandbox
 * places them on the resource created at the same path and answers each item with the view's
 * members, inside workerd, answers checked in "enforce" mode.
 */

import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { defineContract } from "../../../src/contract-language/define-contract";
import { readOnly } from "../../../src/contract-language/schema";
import { placeOperations } from "../../../src/mocks/sandbox/place";
import { callerOf, sandboxApp } from "../../support/sandbox-app";

// FIXTURE: an issue, its summary (a strict view: no other member allowed), and a label
// that also has `id` and `title`, so the summary fits two resources.
const FixtureIssueSummary = z.strictObject({ id: readOnly(z.int()), title: z.string() });
const FixtureIssue = z.object({
  id: readOnly(z.int()),
  title: z.string(),
  body: z.string(),
});
const FixtureLabel = z.object({ id: readOnly(z.int()), title: z.string(), colour: z.string() });
const issue = { "application/json": FixtureIssue };

const FIXTURE_VIEWS_CONTRACT = defineContract({
  purpose: { title: "Fixture issues", summary: "A fixture service, for tests only." },
  resources: { FixtureIssue, FixtureLabel },
  operations: {
    fixtureCreateIssue: {
      method: "POST",
      path: "/fixture-issues",
      request: { body: issue },
      responses: { 201: { description: "Created", content: issue } },
    },
    fixtureListIssues: {
      method: "GET",
      path: "/fixture-issues",
      responses: {
        200: {
          description: "Summaries",
          content: { "application/json": z.object({ items: z.array(FixtureIssueSummary) }) },
        },
      },
    },
  },
});

describe("a list whose items are a view of the resource created at its path", () => {
  it("is placed on that resource, and says so", () => {
    const list = placeOperations(FIXTURE_VIEWS_CONTRACT).find((p) => p.id === "fixtureListIssues");
    expect(list).toMatchObject({ place: "list", resource: "FixtureIssue" });
    expect(list?.why).toMatch(/as a view of 2 of its members/);
  });

  it("lists what was created, each item with the view's members only", async () => {
    const call = callerOf(sandboxApp(FIXTURE_VIEWS_CONTRACT));
    const created = await call("/fixture-issues", {
      method: "POST",
      body: { title: "FIXTURE", body: "long text" },
    });
    expect(created.status).toBe(201);
    const listed = await call("/fixture-issues");
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ items: [{ id: 1, title: "FIXTURE" }] });
  });
});

// FIXTURE: answers that wrap the issue in `data`, with required links beside it; the create
// request wraps it alike.
const wrappedIssue = {
  "application/json": z.object({
    data: FixtureIssue,
    links: z.object({ self: z.string().check(z.minLength(1)) }),
  }),
};
const FIXTURE_WRAPPED_CONTRACT = defineContract({
  purpose: { title: "Fixture issues", summary: "A fixture service, for tests only." },
  resources: { FixtureIssue },
  operations: {
    fixtureCreateWrappedIssue: {
      method: "POST",
      path: "/fixture-wrapped-issues",
      request: {
        body: {
          "application/json": z.object({
            data: z.object({ title: z.string(), body: z.string() }),
          }),
        },
      },
      responses: { 201: { description: "Created", content: wrappedIssue } },
    },
    fixtureGetWrappedIssue: {
      method: "GET",
      path: "/fixture-wrapped-issues/{id}",
      request: { params: z.object({ id: z.coerce.number() }) },
      responses: { 200: { description: "The issue", content: wrappedIssue } },
    },
  },
});

describe("answers that wrap the resource (an envelope member, links beside it)", () => {
  it("are placed on the resource they wrap, the item stored and read back wrapped", async () => {
    const placed = placeOperations(FIXTURE_WRAPPED_CONTRACT);
    expect(placed.map((p) => [p.place, p.resource])).toEqual([
      ["create", "FixtureIssue"],
      ["read", "FixtureIssue"],
    ]);
    const call = callerOf(sandboxApp(FIXTURE_WRAPPED_CONTRACT));
    const created = await call("/fixture-wrapped-issues", {
      method: "POST",
      body: { data: { title: "FIXTURE", body: "text" } },
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ data: { id: 1, title: "FIXTURE", body: "text" } });
    const read = await call("/fixture-wrapped-issues/1");
    expect(read.status).toBe(200);
    const body = (await read.json()) as { data: unknown; links: { self: string } };
    expect(body.data).toEqual({ id: 1, title: "FIXTURE", body: "text" });
    expect(body.links.self.length).toBeGreaterThan(0);
  });
});

// FIXTURE: a task-based API: a create answers 202 with a task (itself a resource of part
// 2), and the index it makes is read at /fixture-indexes/{uid}.
const FixtureTask = z.object({
  taskUid: readOnly(z.int()),
  status: z.enum(["enqueued", "succeeded"]),
});
const FixtureIndex = z.object({ uid: z.string(), primaryKey: z.string() });
const FIXTURE_TASKS_CONTRACT = defineContract({
  purpose: { title: "Fixture indexes", summary: "A fixture service, for tests only." },
  resources: { FixtureIndex, FixtureTask },
  operations: {
    fixtureCreateIndex: {
      method: "POST",
      path: "/fixture-indexes",
      request: { body: { "application/json": FixtureIndex } },
      responses: { 202: { description: "Enqueued", content: { "application/json": FixtureTask } } },
    },
    fixtureGetIndex: {
      method: "GET",
      path: "/fixture-indexes/{uid}",
      request: { params: z.object({ uid: z.string() }) },
      responses: {
        200: { description: "The index", content: { "application/json": FixtureIndex } },
      },
    },
  },
});

describe("an asynchronous operation (RFC 9110 §15.3.3: 202 with a task)", () => {
  it("answers its task, and the resource it makes is readable where the document reads it", async () => {
    const placed = placeOperations(FIXTURE_TASKS_CONTRACT);
    expect(placed.map((p) => [p.place, p.resource])).toEqual([
      ["create", "FixtureIndex"],
      ["read", "FixtureIndex"],
    ]);
    const call = callerOf(sandboxApp(FIXTURE_TASKS_CONTRACT));
    const enqueued = await call("/fixture-indexes", {
      method: "POST",
      body: { uid: "fixture-movies", primaryKey: "id" },
    });
    expect(enqueued.status).toBe(202);
    expect(await enqueued.json()).toMatchObject({ taskUid: expect.any(Number) });
    const read = await call("/fixture-indexes/fixture-movies");
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ uid: "fixture-movies", primaryKey: "id" });
  });
});

// FIXTURE: paths with a trailing slash; every answer a resource of its own that wraps the
// cluster in `result` (no id of its own), and a delete acknowledged by an empty resource.
const FixtureCluster = z.object({ clusterKey: readOnly(z.string()), name: z.string() });
const FixtureClusterResult = z.object({ result: FixtureCluster });
const FixtureEmpty = z.object({});
const clusterResult = { "application/json": FixtureClusterResult };
const FIXTURE_SLASHED_CONTRACT = defineContract({
  purpose: { title: "Fixture clusters", summary: "A fixture service, for tests only." },
  resources: { FixtureCluster, FixtureClusterResult, FixtureEmpty },
  operations: {
    fixtureCreateCluster: {
      method: "POST",
      path: "/fixture-clusters/",
      request: { body: { "application/json": FixtureCluster } },
      responses: { 200: { description: "Created", content: clusterResult } },
    },
    fixtureGetCluster: {
      method: "GET",
      path: "/fixture-clusters/{clusterKey}/",
      request: { params: z.object({ clusterKey: z.string() }) },
      responses: { 200: { description: "The cluster", content: clusterResult } },
    },
    fixtureDeleteCluster: {
      method: "DELETE",
      path: "/fixture-clusters/{clusterKey}/",
      request: { params: z.object({ clusterKey: z.string() }) },
      responses: {
        200: { description: "Deleted", content: { "application/json": FixtureEmpty } },
      },
    },
  },
});

describe("paths with a trailing slash, wrapper resources and empty acknowledgements", () => {
  it("are placed on the resource they act on, and walk create, read, delete, 404", async () => {
    const placed = placeOperations(FIXTURE_SLASHED_CONTRACT);
    expect(placed.map((p) => [p.place, p.resource])).toEqual([
      ["create", "FixtureCluster"],
      ["read", "FixtureCluster"],
      ["delete", "FixtureCluster"],
    ]);
    const call = callerOf(sandboxApp(FIXTURE_SLASHED_CONTRACT));
    const created = await call("/fixture-clusters/", { method: "POST", body: { name: "FIXTURE" } });
    expect(created.status).toBe(200);
    const { result } = (await created.json()) as { result: { clusterKey: string } };
    const read = await call(`/fixture-clusters/${result.clusterKey}/`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({
      result: { clusterKey: result.clusterKey, name: "FIXTURE" },
    });
    const deleted = await call(`/fixture-clusters/${result.clusterKey}/`, { method: "DELETE" });
    expect([deleted.status, await deleted.json()]).toEqual([200, {}]);
    expect((await call(`/fixture-clusters/${result.clusterKey}/`)).status).toBe(404);
  });
});

// FIXTURE: a create that answers a posting view of the device (some of its members) while
// the collection's read answers the device itself.
const FixtureDevice = z.object({
  id: readOnly(z.string()),
  name: z.string(),
  serial: z.optional(z.string()),
});
const FixtureDeviceToPost = z.object({ id: z.optional(z.string()), name: z.string() });
const FIXTURE_POSTED_CONTRACT = defineContract({
  purpose: { title: "Fixture devices", summary: "A fixture service, for tests only." },
  resources: { FixtureDevice, FixtureDeviceToPost },
  operations: {
    fixtureCreateDevice: {
      method: "POST",
      path: "/fixture-devices",
      request: { body: { "application/json": FixtureDeviceToPost } },
      responses: {
        200: { description: "Posted", content: { "application/json": FixtureDeviceToPost } },
      },
    },
    fixtureGetDevice: {
      method: "GET",
      path: "/fixture-devices/{id}",
      request: { params: z.object({ id: z.string() }) },
      responses: {
        200: { description: "The device", content: { "application/json": FixtureDevice } },
      },
    },
  },
});

describe("a create that answers a view of the resource read at its collection", () => {
  it("stores the resource the document reads, answering the view's members", async () => {
    const placed = placeOperations(FIXTURE_POSTED_CONTRACT);
    expect(placed.map((p) => [p.place, p.resource])).toEqual([
      ["create", "FixtureDevice"],
      ["read", "FixtureDevice"],
    ]);
    const call = callerOf(sandboxApp(FIXTURE_POSTED_CONTRACT));
    const created = await call("/fixture-devices", { method: "POST", body: { name: "FIXTURE" } });
    expect(created.status).toBe(200);
    const posted = (await created.json()) as { id: string };
    expect(Object.keys(posted).sort()).toEqual(["id", "name"]);
    const read = await call(`/fixture-devices/${posted.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: posted.id, name: "FIXTURE" });
  });
});

// FIXTURE: a call whose id is named as its path's parameter (`sid` of `{Sid}`), holding a
// status that is a part 2 resource of its own (an enum): the call is no wrapper of it.
const FixtureCallStatus = z.enum(["queued", "completed"]);
const FixtureCall = z.object({ sid: z.string(), status: FixtureCallStatus });
const FIXTURE_CALLS_CONTRACT = defineContract({
  purpose: { title: "Fixture calls", summary: "A fixture service, for tests only." },
  resources: { FixtureCall, FixtureCallStatus },
  operations: {
    fixtureGetCall: {
      method: "GET",
      path: "/fixture-calls/{Sid}.json",
      request: { params: z.object({ Sid: z.string() }) },
      responses: { 200: { description: "The call", content: { "application/json": FixtureCall } } },
    },
  },
});

describe("a resource holding a member that is a resource of its own", () => {
  it("is the item, not a wrapper of that member, where its id is named as the path's parameter", () => {
    expect(placeOperations(FIXTURE_CALLS_CONTRACT)).toMatchObject([
      { place: "read", resource: "FixtureCall" },
    ]);
  });
});

// FIXTURE: a create body that names members as the resource does but holds other things
// (the owner's id where the item holds the owner, labels as text where it holds objects),
// as real APIs' create bodies often do.
const FixtureParcel = z.object({
  id: readOnly(z.int()),
  name: z.string(),
  owner: z.object({ handle: z.string(), since: z.int() }),
  labels: z.optional(z.array(z.object({ text: z.string() }))),
});
const parcel = { "application/json": FixtureParcel };
const FIXTURE_SENT_CONTRACT = defineContract({
  purpose: { title: "Fixture parcels", summary: "A fixture service, for tests only." },
  resources: { FixtureParcel },
  operations: {
    fixtureCreateParcel: {
      method: "POST",
      path: "/fixture-parcels",
      request: {
        body: {
          "application/json": z.object({
            name: z.string(),
            owner: z.string(),
            labels: z.optional(z.array(z.string())),
          }),
        },
      },
      responses: { 201: { description: "Created", content: parcel } },
    },
    fixtureGetParcel: {
      method: "GET",
      path: "/fixture-parcels/{id}",
      request: { params: z.object({ id: z.coerce.number() }) },
      responses: { 200: { description: "The parcel", content: parcel } },
    },
  },
});

describe("a create body whose members are named as the resource's but typed otherwise", () => {
  it("stores what the resource's members take and makes the rest, so the answer is one the document describes", async () => {
    const call = callerOf(sandboxApp(FIXTURE_SENT_CONTRACT));
    const created = await call("/fixture-parcels", {
      method: "POST",
      body: { name: "FIXTURE", owner: "fixture-owner-7", labels: ["fragile"] },
    });
    // Answers are checked in enforce mode: a stored `owner` string would be a 500 here.
    expect(created.status).toBe(201);
    const item = (await created.json()) as Record<string, unknown>;
    expect(item).toMatchObject({ id: 1, name: "FIXTURE" });
    expect(FixtureParcel.shape.owner.safeParse(item.owner).success).toBe(true);
    expect(item).not.toHaveProperty("labels");
    const read = await call("/fixture-parcels/1");
    expect(await read.json()).toEqual(item);
  });
});
