/**
 * How an operation without a handler answers, by the deployment's `UNHANDLED_OPERATIONS`
 * setting: 501 (the default), from the contract's examples (chosen with `Prefer` as
 * Stoplight Prism reads it, RFC 7240), or the sandbox (an operation it places is answered
 * from the caller's stored resources, any other from the examples). Run inside workerd on a
 * FIXTURE contract, with the test runtime's SANDBOX binding.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toJSONSchema, z } from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import {
  FIXTURE_BLUE_GADGET,
  FIXTURE_EXAMPLES_CONTRACT,
  FIXTURE_EXAMPLES_HANDLERS,
  FIXTURE_RED_GADGET,
} from "../../fixtures/examples";
import { FIXTURE_SECRETS } from "../../fixtures/security";
import { expectProblem } from "../../support/assertions";
import { builtApp } from "../../support/built-app";

const app = createApp(FIXTURE_EXAMPLES_CONTRACT, {
  engine: BUILD_ENGINE,
  jsonSchema: toJSONSchema,
  handlers: FIXTURE_EXAMPLES_HANDLERS,
});

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ID = "3d6f0a1e-8b2c-4d5e-9f60-7a8b9c0d1e2f";

/** A request under `setting` (null: the var is not set at all). */
async function call(
  path: string,
  init: RequestInit = {},
  setting: string | null = "examples",
): Promise<Response> {
  const { UNHANDLED_OPERATIONS: _shipped, ...others } = env;
  const bindings = setting === null ? others : { ...others, UNHANDLED_OPERATIONS: setting };
  return app.request(`https://fixture.test${path}`, init, bindings);
}

const prefer = (value: string, headers: Record<string, string> = {}): RequestInit => ({
  headers: { prefer: value, ...headers },
});

afterEach(() => vi.restoreAllMocks());

describe("UNHANDLED_OPERATIONS = 501 (the default)", () => {
  it.each([null, "", "501"])(
    "setting %j: a valid request is answered 501 (RFC 9110 §15.6.2)",
    async (setting) => {
      const res = await call("/fixture-gadgets", {}, setting);
      const body = await expectProblem(res, 501);
      expect(body.operationId).toBe("fixtureListGadgets");
      expect(res.headers.get("answered-by")).toBe("501");
    },
  );

  it("an unknown setting fails closed: 501, and the value logged once per isolate", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    for (let i = 0; i < 3; i += 1) {
      const res = await call("/fixture-gadgets", {}, "FIXTURE-mocks");
      await expectProblem(res, 501);
      expect(res.headers.get("answered-by")).toBe("501");
    }
    expect(logged).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(logged.mock.calls[0]?.[0])) as Record<string, unknown>;
    expect(line).toMatchObject({ level: "error", setting: "UNHANDLED_OPERATIONS" });
    expect(line.value).toBe('"FIXTURE-mocks"');
  });
});

describe("UNHANDLED_OPERATIONS = examples", () => {
  it("answers the first example of the lowest 2xx, with its declared headers", async () => {
    const res = await call("/fixture-gadgets");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual([FIXTURE_RED_GADGET, FIXTURE_BLUE_GADGET]);
    expect(res.headers.get("answered-by")).toBe("examples");
    expect(res.headers.get("x-total-count")).toMatch(/^[0-9]+$/);
    // A CORS field the answer declares is not made up: CORS is off here (Fetch Standard).
    expect(res.headers.has("access-control-allow-origin")).toBe(false);
    // RFC 7240 §2: an answer a preference could change varies on Prefer.
    expect(res.headers.get("vary")).toBe("prefer");
    expect(res.headers.has("preference-applied")).toBe(false);
  });

  it("Prefer: example=<name> answers that example, and says so (RFC 7240 §3)", async () => {
    const res = await call("/fixture-gadgets", prefer("example=none"));
    expect(await res.json()).toEqual([]);
    expect(res.headers.get("preference-applied")).toBe("example=none");
  });

  it("a preference that cannot be honoured is ignored, not an error (RFC 7240 §2)", async () => {
    for (const value of ["example=FIXTURE-missing", "code=418", "code=abc", "dynamic=false"]) {
      const res = await call("/fixture-gadgets", prefer(value));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([FIXTURE_RED_GADGET, FIXTURE_BLUE_GADGET]);
      expect(res.headers.has("preference-applied")).toBe(false);
    }
  });

  it("Prefer: code=404 answers the declared 404", async () => {
    const res = await call(`/fixture-gadgets/${ID}`, prefer("code=404"));
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("");
    expect(res.headers.get("preference-applied")).toBe("code=404");
    expect(res.headers.get("answered-by")).toBe("examples");
  });

  it("Prefer: code=410 answers the part 7 error type of that status, its members made from their schemas", async () => {
    const res = await call(`/fixture-gadgets/${ID}`, prefer("code=410"));
    const body = await expectProblem(res, 410);
    expect(body.title).toBe("FIXTURE gadget gone");
    expect(String(body.gadgetId)).toMatch(GUID);
    expect(res.headers.get("preference-applied")).toBe("code=410");
  });

  it("Prefer: code=418 answers the declared 4XX range with that status; 410 stays the error type's, an explicit code (OpenAPI 3.1 §4.8.16.2)", async () => {
    const res = await call(`/fixture-gadgets/${ID}`, prefer("code=418"));
    expect(res.status).toBe(418);
    expect(await res.text()).toBe("");
    expect(res.headers.get("preference-applied")).toBe("code=418");
    expect(res.headers.get("answered-by")).toBe("examples");
  });

  it("without examples: the schema's own examples and defaults, then values made from it, the same each time", async () => {
    const first = await call(`/fixture-gadgets/${ID}`);
    const again = await call(`/fixture-gadgets/${ID}`);
    const body = (await first.json()) as Record<string, unknown>;
    expect(await again.json()).toEqual(body);
    expect(String(body.id)).toMatch(GUID);
    expect(body.count).toBe(1);
    // A write-only member is never answered (OpenAPI 3.1 §4.8.24.1).
    expect(body).not.toHaveProperty("secret");
  });

  it("Prefer: dynamic=true makes a value from the schema alone, the same for the same request", async () => {
    const ask = (id: string) => call(`/fixture-gadgets/${id}`, prefer("dynamic=true"));
    const first = await ask(ID);
    expect(first.headers.get("preference-applied")).toBe("dynamic=true");
    const body = await first.json();
    expect(await (await ask(ID)).json()).toEqual(body);
    const other = ["a", "b", "c"].map((n) => `${ID.slice(0, -1)}${n}`);
    const bodies = await Promise.all(
      other.map(async (id) => JSON.stringify(await (await ask(id)).json())),
    );
    expect(new Set([JSON.stringify(body), ...bodies]).size).toBeGreaterThan(1);
  });

  it("Prefer preferences combine: code and example in one header", async () => {
    const res = await call("/fixture-gadgets", prefer('code=200, example="none"'));
    expect(await res.json()).toEqual([]);
    expect(res.headers.get("preference-applied")).toBe("code=200, example=none");
  });

  it("honours content negotiation: Accept chooses among the declared media types (RFC 9110 §12.5.1)", async () => {
    const res = await call(`/fixture-gadgets/${ID}`, { headers: { accept: "text/plain" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("FIXTURE gadget");
    expect(res.headers.get("vary")).toBe("accept, prefer");
  });

  it("406 when no declared media type is acceptable, as without the setting (RFC 9110 §15.5.7)", async () => {
    const res = await call(`/fixture-gadgets/${ID}`, { headers: { accept: "image/png" } });
    await expectProblem(res, 406);
    expect(res.headers.has("answered-by")).toBe(false);
  });

  it("input is validated first: a bad request gets the same problem, and no made-up answer", async () => {
    const res = await call("/fixture-gadgets/not-a-guid");
    await expectProblem(res, 422);
    expect(res.headers.has("answered-by")).toBe(false);
  });

  it("security still applies: 401 without the credential, the example with it", async () => {
    const init = (headers: Record<string, string>): RequestInit => ({
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ name: "FIXTURE", colour: "red" }),
    });
    await expectProblem(await call("/fixture-gadgets", init({})), 401);
    const res = await call(
      "/fixture-gadgets",
      init({ "x-partner-key": FIXTURE_SECRETS.FIXTURE_PARTNER_KEY }),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual(FIXTURE_RED_GADGET);
  });

  it("an example that breaks its schema is never served, even when asked for", async () => {
    const res = await call("/fixture-bad-example", prefer("example=broken"));
    expect(await res.json()).toEqual(FIXTURE_BLUE_GADGET);
    expect(res.headers.has("preference-applied")).toBe(false);
  });

  it("an answer no value can be made for is 501; one made anyway is checked like a handler's", async () => {
    await expectProblem(await call("/fixture-refined"), 501);
    vi.spyOn(console, "error").mockImplementation(() => {});
    // Under RESPONSE_VALIDATION = enforce, a made value that breaks the schema is a 500.
    const made = await call("/fixture-refined", prefer("dynamic=true"));
    await expectProblem(made, 500);
    expect(made.headers.get("answered-by")).toBe("examples");
  });

  it("an example the build held to its schema is served without being checked again; one it could not hold is checked when served", async () => {
    let checks = 0;
    const counted = (ok: (name: string) => boolean | Promise<boolean>) =>
      z.object({
        name: z.string().check(
          z.refine((name: string) => {
            checks += 1;
            return ok(name);
          }),
        ),
      });
    const answer = (schema: ReturnType<typeof counted>) => ({
      200: {
        description: "FIXTURE: a name",
        content: {
          "application/json": {
            schema,
            examples: { fixtureName: { value: { name: "FIXTURE name" } } },
          },
        },
      },
    });
    const contract = defineContract({
      operations: {
        fixtureVetted: {
          method: "GET",
          path: "/fixture-vetted",
          responses: answer(counted((name) => name.startsWith("FIXTURE"))),
        },
        // zod checks an asynchronous refinement only with a promise, which the build does not.
        fixtureUnvetted: {
          method: "GET",
          path: "/fixture-unvetted",
          responses: answer(counted(async (name) => name.startsWith("FIXTURE"))),
        },
      },
    });
    const served = createApp(contract, { engine: BUILD_ENGINE, jsonSchema: toJSONSchema });
    const bindings = { ...env, UNHANDLED_OPERATIONS: "examples", RESPONSE_VALIDATION: "enforce" };
    const get = (path: string, init: RequestInit = {}) =>
      served.request(`https://fixture.test${path}`, init, bindings);
    expect(await (await get("/fixture-vetted")).json()).toEqual({ name: "FIXTURE name" });
    const built = checks;
    expect(built).toBeGreaterThan(0);
    expect((await get("/fixture-vetted")).status).toBe(200);
    expect(checks).toBe(built);
    // A value made for the request is the Worker's own: it is checked.
    expect((await get("/fixture-vetted", prefer("dynamic=true"))).status).toBe(500);
    expect(checks).toBe(built + 1);
    expect((await get("/fixture-unvetted")).status).toBe(200);
    const before = checks;
    expect((await get("/fixture-unvetted")).status).toBe(200);
    expect(checks).toBeGreaterThan(before);
  });

  it("a binary answer with no example is answered with bytes made for it, the same each time, never 501", async () => {
    const first = await call(`/fixture-gadgets/${ID}/picture`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    expect(first.headers.get("answered-by")).toBe("examples");
    const bytes = new Uint8Array(await first.arrayBuffer());
    expect(bytes.length).toBe(32);
    const again = new Uint8Array(
      await (await call(`/fixture-gadgets/${ID}/picture`)).arrayBuffer(),
    );
    expect(again).toEqual(bytes);
  });

  it("the status report says which answers are made rather than taken from an example", async () => {
    const report = (await (
      await call("/_service/interface", { headers: { accept: "application/json" } })
    ).json()) as { operations: { id: string; madeAnswers?: string[] }[] };
    const made = new Map(report.operations.map((o) => [o.id, o.madeAnswers]));
    expect(made.get("fixtureGadgetPicture")).toEqual(["200 image/png (bytes made for it)"]);
    // Its examples are taken: nothing made.
    expect(made.get("fixtureListGadgets")).toBeUndefined();
    // An operation with a handler is answered by it.
    expect(made.get("fixtureHandled")).toBeUndefined();
  });

  it("an operation with a handler is answered by it, without the header", async () => {
    const res = await call("/fixture-handled");
    expect(((await res.json()) as { name: string }).name).toBe("FIXTURE from a handler");
    expect(res.headers.has("answered-by")).toBe(false);
    expect(res.headers.has("vary")).toBe(false);
  });
});

describe("cross-origin calls (CORS, the Fetch Standard)", () => {
  const ORIGIN = "https://fixture-app.test";
  const cors = (init: RequestInit) => {
    const { UNHANDLED_OPERATIONS: _shipped, ...others } = env;
    const bindings = { ...others, UNHANDLED_OPERATIONS: "examples", CORS_ALLOWED_ORIGINS: ORIGIN };
    return app.request("https://fixture.test/fixture-gadgets", init, bindings);
  };

  it("a browser may send Prefer to an operation without a handler (preflight)", async () => {
    const res = await cors({
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "GET",
        "access-control-request-headers": "prefer",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")?.split(/,\s*/)).toContain("prefer");
  });

  it("and read Answered-By and Preference-Applied; the answer varies on Origin and Prefer", async () => {
    const res = await cors({ headers: { origin: ORIGIN, prefer: "example=none" } });
    const exposed = res.headers.get("access-control-expose-headers")?.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(["answered-by", "preference-applied"]));
    const vary = res.headers.get("vary")?.toLowerCase().split(/,\s*/);
    expect(vary).toEqual(expect.arrayContaining(["origin", "prefer"]));
  });
});

describe("UNHANDLED_OPERATIONS = sandbox", () => {
  const inSandbox = (path: string, init: RequestInit = {}, sandbox = crypto.randomUUID()) =>
    call(path, { ...init, headers: { "sandbox-id": sandbox, ...init.headers } }, "sandbox");

  it("an operation the sandbox places is answered by it, as by a handler, and says so", async () => {
    const sandbox = crypto.randomUUID();
    const empty = await inSandbox("/fixture-gadgets", {}, sandbox);
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual([]);
    expect(empty.headers.get("answered-by")).toBe("sandbox");
    // The declared required header is set, with a value its schema accepts.
    expect(empty.headers.get("x-total-count")).toMatch(/^[0-9]+$/);
    const create = (headers: Record<string, string>) =>
      inSandbox(
        "/fixture-gadgets",
        {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ name: "FIXTURE kept", colour: "red", id: ID }),
        },
        sandbox,
      );
    // Security still applies (RFC 9110 §15.5.2): nothing is stored without the credential.
    await expectProblem(await create({}), 401);
    const made = await create({ "x-partner-key": FIXTURE_SECRETS.FIXTURE_PARTNER_KEY });
    expect(made.status).toBe(201);
    expect(made.headers.get("answered-by")).toBe("sandbox");
    const stored = (await made.json()) as { id: string; count: number };
    // readOnly (OpenAPI 3.1 §4.8.24.1): the id sent is ignored, one is made; defaults apply.
    expect(stored.id).toMatch(GUID);
    expect(stored.id).not.toBe(ID);
    expect(stored.count).toBe(1);
    // The item is in the credential's sandbox: an open read with the same credential sees
    // it, an anonymous one does not (the operation's own 404, which declares no body).
    const key = { "x-partner-key": FIXTURE_SECRETS.FIXTURE_PARTNER_KEY };
    const read = await inSandbox(`/fixture-gadgets/${stored.id}`, { headers: key }, sandbox);
    expect(await read.json()).toEqual(stored);
    expect(read.headers.get("answered-by")).toBe("sandbox");
    const anonymous = await inSandbox(`/fixture-gadgets/${stored.id}`, {}, sandbox);
    expect(anonymous.status).toBe(404);
    expect(anonymous.headers.get("answered-by")).toBe("sandbox");
  });

  it("its refusals are the run path's: a bad body is still the contract's 422", async () => {
    const bad = await inSandbox("/fixture-gadgets", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-partner-key": FIXTURE_SECRETS.FIXTURE_PARTNER_KEY,
      },
      body: JSON.stringify({ name: "", colour: "FIXTURE-mauve" }),
    });
    await expectProblem(bad, 422);
  });

  it("an operation it cannot place answers from its examples, and says so", async () => {
    const res = await inSandbox("/fixture-bad-example");
    expect(await res.json()).toEqual(FIXTURE_BLUE_GADGET);
    expect(res.headers.get("answered-by")).toBe("examples");
  });
});

describe("what the deployment says of it", () => {
  const report = async (setting: string | null) =>
    (await (await call("/_service/interface", {}, setting)).json()) as {
      unhandledOperations: string;
      operations: { id: string; answeredBy: string }[];
    };

  it.each([
    [null, "501", "501"],
    ["examples", "examples", "examples"],
    ["sandbox", "sandbox", "sandbox"],
    ["FIXTURE-bad", "501", "501"],
  ])(
    "the status report lists how each operation is answered (setting %j)",
    async (setting, reported, way) => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      const { unhandledOperations, operations } = await report(setting);
      expect(unhandledOperations).toBe(reported);
      const ways = Object.fromEntries(operations.map((o) => [o.id, o.answeredBy]));
      expect(ways.fixtureHandledGadget).toBe("handler");
      expect(ways.fixtureListGadgets).toBe(way);
      expect(operations).toHaveLength(Object.keys(FIXTURE_EXAMPLES_CONTRACT.operations).length);
    },
  );

  it("under sandbox, the report and the page say where the sandbox places each operation, and why not", async () => {
    const { operations } = (await report("sandbox")) as unknown as {
      operations: { id: string; answeredBy: string; sandbox?: { place: string; why: string } }[];
    };
    const byId = Object.fromEntries(operations.map((o) => [o.id, o]));
    expect(byId.fixtureCreateGadget?.sandbox?.place).toBe("create");
    expect(byId.fixtureGetGadget?.sandbox?.place).toBe("read");
    expect(byId.fixtureBadExample).toMatchObject({ answeredBy: "examples" });
    expect(byId.fixtureBadExample?.sandbox).toMatchObject({ place: "examples" });
    expect(byId.fixtureBadExample?.sandbox?.why).toMatch(/not a list of a part 2 resource/);
    // A handler's operation needs no sandbox: it says nothing of one.
    expect(byId.fixtureHandledGadget?.sandbox).toBeUndefined();
    const page = await (
      await call("/_service/interface", { headers: { accept: "text/html" } }, "sandbox")
    ).text();
    expect(page).toMatch(
      /<code>fixtureCreateGadget<\/code>.*sandbox<\/span>: create, POST to the collection/,
    );
    expect(page).toMatch(/<code>fixtureBadExample<\/code>.*examples.*not in the sandbox: /);
  });

  it("the interface page lists them too", async () => {
    const page = await (
      await call("/_service/interface", { headers: { accept: "text/html" } }, "examples")
    ).text();
    expect(page).toContain("Operations (part 4)");
    expect(page).toMatch(/<code>fixtureListGadgets<\/code>.*examples/);
    expect(page).toMatch(/<code>fixtureHandledGadget<\/code>.*handler/);
  });

  it("the OpenAPI document is byte for byte the same under every setting", async () => {
    const documents = await Promise.all(
      [null, "501", "examples", "sandbox"].map(async (setting) =>
        (await call("/_service/openapi.json", {}, setting)).text(),
      ),
    );
    expect(new Set(documents).size).toBe(1);
  });
});

describe("a Worker uploaded without those answers (wrangler.toml does not ask for them)", () => {
  // An upload's build leaves the examples' and the sandbox's answers out unless the
  // deployment's [vars] set UNHANDLED_OPERATIONS to use them (src/build/write.ts).
  const uploaded = builtApp(FIXTURE_EXAMPLES_CONTRACT, FIXTURE_EXAMPLES_HANDLERS, false);
  const callUploaded = async (path: string, setting: string) => {
    const { app } = await uploaded;
    return app.request(
      `https://fixture.test${path}`,
      {},
      { ...env, UNHANDLED_OPERATIONS: setting },
    );
  };

  it.each(["examples", "sandbox"])(
    "setting %j fails closed: 501 (RFC 9110 §15.6.2), the cause logged once per isolate",
    async (setting) => {
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      for (let i = 0; i < 3; i += 1) {
        const res = await callUploaded("/fixture-gadgets", setting);
        expect((await expectProblem(res, 501)).operationId).toBe("fixtureListGadgets");
        expect(res.headers.get("answered-by")).toBe("501");
      }
      expect(logged).toHaveBeenCalledTimes(1);
      const line = JSON.parse(String(logged.mock.calls[0]?.[0])) as Record<string, unknown>;
      expect(line).toMatchObject({
        level: "error",
        setting: "UNHANDLED_OPERATIONS",
        value: setting,
      });
      expect(String(line.message)).toContain("wrangler.toml");
      // The report says how the operation is answered: 501, whatever the setting.
      const report = (await (await callUploaded("/_service/interface", setting)).json()) as {
        operations: { id: string; answeredBy: string }[];
      };
      const ways = Object.fromEntries(report.operations.map((o) => [o.id, o.answeredBy]));
      expect(ways.fixtureListGadgets).toBe("501");
      expect(ways.fixtureHandledGadget).toBe("handler");
    },
  );
});
