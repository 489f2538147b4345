/**
 * The sandbox's answers held to the served document, on a FIXTURE contract of the shapes
 * real documents gave it (test/tools/conformance's checker found each on an import): a
 * create whose request may leave out what the resource requires (Adyen's payment links), a
 * response that lists a binary media type before JSON (GoDaddy's), and a read that declares
 * no 404 of its own, whose 404 the served document must list (RFC 9110 §15.5.5).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { defineContract } from "../../../src/contract-language/define-contract";
import { readOnly } from "../../../src/contract-language/schema";
import { UNHANDLED_VAR } from "../../../src/engine/operations/unhandled-setting";
import { callerOf, sandboxApp } from "../../support/sandbox-app";
import { checkConformance } from "../../tools/conformance/checker";

const FixtureParcel = z.object({
  id: readOnly(z.guid()),
  label: z.string().check(z.minLength(1)),
  weight: z.number().check(z.minimum(0)),
});
// FIXTURE: what a client may send, which requires nothing the resource requires.
const FixtureParcelDraft = z.object({ weight: z.optional(z.number().check(z.minimum(0))) });
// FIXTURE: a binary media type first, as GoDaddy lists application/javascript.
const parcel = {
  "application/javascript": z.instanceof(Uint8Array),
  "application/json": FixtureParcel,
};

const FIXTURE_PARCELS_CONTRACT = defineContract({
  resources: { FixtureParcel, FixtureParcelDraft },
  operations: {
    fixtureCreateParcel: {
      method: "POST",
      path: "/fixture-parcels",
      request: { body: { "application/json": FixtureParcelDraft }, bodyRequired: false },
      responses: { 201: { description: "FIXTURE created", content: parcel } },
    },
    fixtureGetParcel: {
      method: "GET",
      path: "/fixture-parcels/{parcelId}",
      request: { params: z.object({ parcelId: z.guid() }) },
      responses: { 200: { description: "FIXTURE parcel", content: parcel } },
    },
  },
});

const app = sandboxApp(FIXTURE_PARCELS_CONTRACT);

describe("the sandbox's answers, as the served document documents them", () => {
  it("makes what the resource requires and the request left out, and writes JSON where a binary type comes first", async () => {
    const call = callerOf(app);
    const created = await call("/fixture-parcels", { method: "POST", body: { weight: 2 } });
    expect(created.status).toBe(201);
    expect(created.headers.get("content-type")).toBe("application/json");
    const made = (await created.json()) as { id: string; label: string; weight: number };
    expect(made.weight).toBe(2);
    expect(made.label.length).toBeGreaterThan(0);
    const read = await call(`/fixture-parcels/${made.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(made);
  });

  it("lists the 404 it answers for an item it does not hold, where the operation declares none", async () => {
    const document = (await (await app.request("/_service/openapi.json", {}, env)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(document.paths["/fixture-parcels/{parcelId}"]?.get?.responses).toHaveProperty("404");
    expect(document.paths["/fixture-parcels"]?.post?.responses).not.toHaveProperty("404");
    const missing = await callerOf(app)(`/fixture-parcels/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
  });

  it("passes the conformance checker, every valid request's answer documented", async () => {
    const report = await checkConformance("https://conformance.test", {
      fetch: (r) => Promise.resolve(app.fetch(r, { ...env, [UNHANDLED_VAR]: "sandbox" })),
    });
    expect(report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
  });
});

// FIXTURE: notes in a collection of an owner that no operation creates, as Spotify's
// playlists under /users/{user_id}: the owner can be read, never made.
const FixtureOwner = z.object({ id: readOnly(z.string()), name: z.string() });
const FixtureNote = z.object({ id: readOnly(z.guid()), text: z.string() });
const owner = z.object({ ownerId: z.string() });
const FIXTURE_OWNED_NOTES_CONTRACT = defineContract({
  resources: { FixtureOwner, FixtureNote },
  operations: {
    fixtureGetOwner: {
      method: "GET",
      path: "/fixture-owners/{ownerId}",
      request: { params: owner },
      responses: {
        200: { description: "FIXTURE owner", content: { "application/json": FixtureOwner } },
      },
    },
    fixtureListNotes: {
      method: "GET",
      path: "/fixture-owners/{ownerId}/fixture-notes",
      request: { params: owner },
      responses: {
        200: {
          description: "FIXTURE notes",
          content: { "application/json": z.array(FixtureNote) },
        },
      },
    },
    fixtureCreateNote: {
      method: "POST",
      path: "/fixture-owners/{ownerId}/fixture-notes",
      request: { params: owner, body: { "application/json": FixtureNote } },
      responses: {
        201: { description: "FIXTURE note", content: { "application/json": FixtureNote } },
      },
    },
  },
});

describe("a collection whose owner no operation creates", () => {
  it("takes any owner to exist, and keeps each owner's items apart", async () => {
    const call = callerOf(sandboxApp(FIXTURE_OWNED_NOTES_CONTRACT));
    const created = await call("/fixture-owners/smedjan/fixture-notes", {
      method: "POST",
      body: { text: "FIXTURE road trip" },
    });
    expect(created.status).toBe(201);
    const note = await created.json();
    expect(await (await call("/fixture-owners/smedjan/fixture-notes")).json()).toEqual([note]);
    expect(await (await call("/fixture-owners/other/fixture-notes")).json()).toEqual([]);
  });
});
