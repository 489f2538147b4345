/**
 * Items stored under an older revision of the contract, read after a revision changes the
 * resource (src/mocks/sandbox/items.ts): answered as the current schema says, inside
 * workerd, with answers checked in "enforce" mode.
 */

import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { defineContract } from "../../../src/contract-language/define-contract";
import { readOnly } from "../../../src/contract-language/schema";
import { callerOf, sandboxApp } from "../../support/sandbox-app";

/** FIXTURE: a note resource, revised: `colour` removed, `priority` (defaulted) and `pinned` added. */
function fixtureNotes(FixtureNote: z.ZodMiniObject) {
  const note = { "application/json": FixtureNote };
  return defineContract({
    purpose: { title: "Fixture notes", summary: "A fixture service, for tests only." },
    resources: { FixtureNote },
    operations: {
      fixtureCreateNote: {
        method: "POST",
        path: "/fixture-revised-notes",
        request: { body: note },
        responses: { 201: { description: "Created", content: note } },
      },
      fixtureGetNote: {
        method: "GET",
        path: "/fixture-revised-notes/{id}",
        request: { params: z.object({ id: z.coerce.number() }) },
        responses: { 200: { description: "The note", content: note } },
      },
    },
  });
}

const before = fixtureNotes(
  z.object({ id: readOnly(z.int()), text: z.string(), colour: z.string() }),
);
const after = fixtureNotes(
  z.object({
    id: readOnly(z.int()),
    text: z.string(),
    priority: z._default(z.enum(["low", "normal"]), "normal"),
    pinned: z.boolean(),
  }),
);

describe("an item stored under an older revision", () => {
  it("is answered as the current schema reads it: removed members left out, added ones defaulted or made", async () => {
    const sandbox = crypto.randomUUID();
    const old = callerOf(sandboxApp(before), sandbox);
    const created = await old("/fixture-revised-notes", {
      method: "POST",
      body: { text: "FIXTURE", colour: "red" },
    });
    expect(created.status).toBe(201);
    const read = await callerOf(sandboxApp(after), sandbox)("/fixture-revised-notes/1");
    expect(read.status).toBe(200);
    const body = (await read.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ id: 1, text: "FIXTURE", priority: "normal" });
    expect(typeof body.pinned).toBe("boolean");
    expect(body).not.toHaveProperty("colour");
  });
});
