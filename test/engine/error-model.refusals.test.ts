/**
 * The engine's own refusals in the API's words (issue 40): a state machine's 409, part 9's
 * unknown version and the 501 of an operation without a handler, each presented as one of
 * part 7's error types of its own body, with a fixed code and the failure's facts (the
 * supported versions) where the body puts them. An invented FIXTURE invoice contract, as a
 * filled-in revision of the spec's nine-part format might declare it; not the service's.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { defineContract } from "../../src/contract-language/define-contract";
import { defineHandlers } from "../../src/contract-language/define-handlers";

const FixtureInvoice = z.object({ id: z.string(), status: z.enum(["draft", "sent"]) });
const byId = z.object({ id: z.string() });
const answered = {
  200: { description: "FIXTURE done", content: { "application/json": FixtureInvoice } },
};
const errorBody = (code: string, extra = {}) =>
  z.object({ error: z.object({ code: z.literal(code), message: z.string(), ...extra }) });

const CONTRACT = defineContract({
  resources: { FixtureInvoice },
  states: {
    fixtureInvoiceLifecycle: {
      resource: "FixtureInvoice",
      field: "status",
      states: ["draft", "sent"],
      initial: "draft",
      transitions: [{ from: "draft", to: "sent", trigger: "send" }],
    },
  },
  errors: {
    FixtureInvalidTransition: {
      status: 409,
      title: "Fixture invalid transition",
      schema: errorBody("invalid_transition"),
      body: {
        mediaType: "application/json",
        carries: { detail: "/error/message" },
        fixed: { "/error/code": "invalid_transition" },
      },
      presents: ["state-conflict"],
    },
    FixtureUnsupportedVersion: {
      status: 400,
      title: "Fixture unsupported version",
      schema: errorBody("unsupported_version", { supported: z.array(z.string()) }),
      body: {
        mediaType: "application/json",
        carries: { detail: "/error/message", supportedVersions: "/error/supported" },
        fixed: { "/error/code": "unsupported_version" },
      },
      presents: ["unsupported-version"],
    },
    FixtureNotImplemented: {
      status: 501,
      title: "Fixture not implemented",
      schema: errorBody("not_implemented"),
      body: {
        mediaType: "application/json",
        carries: { detail: "/error/message" },
        fixed: { "/error/code": "not_implemented" },
      },
      presents: ["operation-not-implemented"],
    },
  },
  versioning: {
    current: "2026-01-01",
    versions: { "2026-01-01": {} },
    placement: { in: "header", name: "Fixture-Version" },
    required: false,
  },
  operations: {
    fixtureSendInvoice: {
      method: "POST",
      path: "/fixture-invoices/{id}/send",
      request: { params: byId },
      responses: answered,
      transition: { machine: "fixtureInvoiceLifecycle", trigger: "send" },
    },
    fixtureVoidInvoice: {
      method: "POST",
      path: "/fixture-invoices/{id}/void",
      request: { params: byId },
      responses: answered,
    },
    fixtureRenameInvoice: {
      method: "POST",
      path: "/fixture-invoices/{id}/rename",
      request: { params: byId },
      responses: answered,
      allowedIn: { machine: "fixtureInvoiceLifecycle", states: ["draft"] },
    },
  },
});

const app = createApp(CONTRACT, {
  engine: BUILD_ENGINE,
  jsonSchema: z.toJSONSchema,
  handlers: defineHandlers(CONTRACT, {
    // FIXTURE: every invoice is already sent.
    fixtureSendInvoice: ({ params }, { transition }) => ({
      status: 200,
      body: { id: params.id, status: transition("sent") },
    }),
    // FIXTURE: invoice d1 is a draft, every other one sent.
    fixtureRenameInvoice: ({ params }, { requireState }) => {
      const status = params.id === "d1" ? "draft" : "sent";
      requireState(status);
      return { status: 200, body: { id: params.id, status } };
    },
  }),
});
const post = (path: string, headers: Record<string, string> = {}) =>
  app.request(`https://fixture.test${path}`, { method: "POST", headers }, env);

describe("the engine's refusals in the API's own body", () => {
  it("a transition the machine does not allow is the API's 409 with its fixed code (RFC 9110 §15.5.10)", async () => {
    const res = await post("/fixture-invoices/i1/send");
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({
      error: {
        code: "invalid_transition",
        message: "fixtureInvoiceLifecycle does not allow send from state sent.",
      },
    });
  });

  it("an operation allowed only in some states refuses another with the machine's 409, in the API's body", async () => {
    const draft = await post("/fixture-invoices/d1/rename");
    expect(draft.status).toBe(200);
    const sent = await post("/fixture-invoices/s1/rename");
    expect(sent.status).toBe(409);
    expect(await sent.json()).toEqual({
      error: {
        code: "invalid_transition",
        message:
          "fixtureRenameInvoice acts only on a resource fixtureInvoiceLifecycle has in state draft; this one is in state sent.",
      },
    });
    const doc = (await (
      await app.request("https://fixture.test/_service/openapi.json")
    ).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const rename = doc.paths["/fixture-invoices/{id}/rename"]?.post ?? {};
    expect(rename["x-allowed-in"]).toEqual({
      machine: "fixtureInvoiceLifecycle",
      states: ["draft"],
    });
    expect(Object.keys(rename.responses as object)).toContain("409");
  });

  it("a version the service does not have is the API's 400, listing the supported versions", async () => {
    const res = await post("/fixture-invoices/i1/send", { "fixture-version": "1999-01-01" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "unsupported_version",
        message: expect.any(String),
        supported: ["2026-01-01"],
      },
    });
  });

  it("an operation without a handler is the API's 501 (RFC 9110 §15.6.2)", async () => {
    const res = await post("/fixture-invoices/i1/void");
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({
      error: { code: "not_implemented", message: expect.stringContaining("not implemented") },
    });
  });

  it("the OpenAPI document gives each of them the API's body at its status", async () => {
    type Schema = { properties?: Record<string, Schema>; const?: unknown };
    type Answer = { content?: Record<string, { schema: Schema }> };
    const doc = (await (
      await app.request("https://fixture.test/_service/openapi.json")
    ).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, Answer> }>>;
    };
    const code = (answer: Answer | undefined) =>
      answer?.content?.["application/json"]?.schema.properties?.error?.properties?.code?.const;
    const send = doc.paths["/fixture-invoices/{id}/send"]?.post?.responses ?? {};
    expect(code(send["409"])).toBe("invalid_transition");
    expect(code(send["400"])).toBe("unsupported_version");
    expect(code(doc.paths["/fixture-invoices/{id}/void"]?.post?.responses["501"])).toBe(
      "not_implemented",
    );
  });
});
