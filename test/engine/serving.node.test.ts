/**
 * The serving engine is given only the parts its contract uses (src/engine/features.ts), as the
 * build chooses them; a Worker whose build is older than its contract (a part it uses was
 * not given) is refused when the app is made, naming the part and the command that builds
 * it, never served with that part missing. The examples feature, which the build gives while an
 * operation has no handler, is the exception: a Worker built without it starts, and answers
 * such an operation 501 under every setting.
 */
import { describe, expect, it, vi } from "vitest";
import { prepareBuild, servedFeatures } from "../../src/build/generate";
import { defaultRouter } from "../../src/build-engine";
import type { Contract } from "../../src/contract-language/contract";
import { servingFeatures } from "../../src/contract-language/needs";
import { servingEngine } from "../../src/engine/serving";
import { STATES_FEATURE } from "../../src/engine/states/transition";
import { type ServeOptions, serveApp } from "../../src/serve-app";
import { FIXTURE_EVENTS_CONTRACT } from "../fixtures/events";
import { FIXTURE_EXAMPLES_CONTRACT, FIXTURE_EXAMPLES_HANDLERS } from "../fixtures/examples";
import { FIXTURE_SECURITY_CONTRACT } from "../fixtures/security";
import { FIXTURE_STATES_CONTRACT } from "../fixtures/states";

describe("the router of the operations' routes", () => {
  it("makes its matcher while the app is made, not on the first request", async () => {
    const { built, needed } = await prepareBuild(FIXTURE_SECURITY_CONTRACT, {});
    const parts = { built, ...servedFeatures(needed) } as ServeOptions<Contract>;
    const engine = parts.engine as ReturnType<typeof servingEngine>;
    const matches: string[] = [];
    const router = engine.router();
    const match = router.match.bind(router);
    router.match = (method, path) => {
      matches.push(`${method} ${path}`);
      return match(method, path);
    };
    const app = serveApp(FIXTURE_SECURITY_CONTRACT as Contract, {
      ...parts,
      engine: { ...engine, router: () => router },
    });
    expect(matches).toEqual(["GET /"]);
    // Its matcher made, no route can be added after the app is composed (Hono refuses).
    expect(() => router.add("GET", "/fixture-late", [] as never)).toThrow();
    expect((await app.request("/_service/health")).status).toBe(200);
  });
});

describe("the status report's two forms (/_service/interface)", () => {
  it("renders the page only for a request that asks for it, once per isolate", async () => {
    const { built, needed } = await prepareBuild(FIXTURE_SECURITY_CONTRACT, {});
    const { page } = built.report;
    let rendered = 0;
    const counted = {
      [Symbol.iterator]: () => {
        rendered += 1;
        return page[Symbol.iterator]();
      },
    } as unknown as typeof page;
    const app = serveApp(
      FIXTURE_SECURITY_CONTRACT as Contract,
      {
        built: { ...built, report: { ...built.report, page: counted } },
        ...servedFeatures(needed),
      } as ServeOptions<Contract>,
    );
    const json = await app.request("/_service/interface");
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toContain("application/json");
    expect(rendered).toBe(0);
    for (const _ of [1, 2]) {
      const html = await app.request("/_service/interface", { headers: { accept: "text/html" } });
      expect(html.headers.get("content-type")).toContain("text/html");
      expect(await html.text()).toContain("<html");
    }
    expect(rendered).toBe(1);
  });
});

describe("the status report of a deployment of the platform's defaults (DefaultReport)", () => {
  const interfaceOf = async (built: object, env: Record<string, string> = {}) => {
    const { needed } = await prepareBuild(FIXTURE_EVENTS_CONTRACT, {});
    const options = { built, ...servedFeatures(needed) } as ServeOptions<Contract>;
    const app = serveApp(FIXTURE_EVENTS_CONTRACT as Contract, options);
    return app.fetch(new Request("https://fixture.test/_service/interface"), env as never);
  };

  it("is the JSON the build wrote: the bytes and entity tag the report made in an isolate has", async () => {
    const { built } = await prepareBuild(FIXTURE_EVENTS_CONTRACT, {});
    expect(built.defaultReport?.events).toEqual(Object.keys(FIXTURE_EVENTS_CONTRACT.events));
    const { defaultReport: _, ...made } = built;
    const [asBuilt, inIsolate] = [await interfaceOf(built), await interfaceOf(made)];
    expect(await asBuilt.text()).toBe(await inIsolate.text());
    expect(asBuilt.headers.get("etag")).toBe(inIsolate.headers.get("etag"));
    expect(asBuilt.headers.get("content-type")).toBe(inIsolate.headers.get("content-type"));
  });

  it("is served to that deployment only: CORS on, another setting or an event's destination make it in the isolate", async () => {
    const { built } = await prepareBuild(FIXTURE_EVENTS_CONTRACT, {});
    const marker = '"FIXTURE the default report"';
    const marked = {
      ...built,
      defaultReport: { ...built.defaultReport, document: { body: marker } },
    };
    expect(await (await interfaceOf(marked)).text()).toBe(marker);
    const event = Object.keys(FIXTURE_EVENTS_CONTRACT.events)[0] as string;
    const destination = {
      url: "https://hooks.fixture.test/in",
      events: [event],
      secret: "FIXTURE_KEY",
    };
    const others: [Record<string, string>, (report: Record<string, unknown>) => unknown][] = [
      [{ CORS_ALLOWED_ORIGINS: "https://app.fixture.test" }, (r) => r.cors],
      [{ UNHANDLED_OPERATIONS: "examples" }, (r) => r.unhandledOperations],
      [{ WEBHOOK_DESTINATIONS: JSON.stringify([destination]) }, (r) => r.events],
    ];
    const expected = [
      expect.objectContaining({ enabled: true }),
      "examples",
      expect.arrayContaining([expect.objectContaining({ name: event, destinations: 1 })]),
    ];
    for (const [i, [env, read]] of others.entries()) {
      const text = await (await interfaceOf(marked, env)).text();
      expect(text).not.toBe(marker);
      expect(read(JSON.parse(text))).toEqual(expected[i]);
    }
  });
});

describe("the serving engine's features", () => {
  it("a contract served without a part it uses is refused when the app is made, naming the part", async () => {
    const { built } = await prepareBuild(FIXTURE_STATES_CONTRACT, {});
    const serve = (engine: ReturnType<typeof servingEngine>) =>
      serveApp(FIXTURE_STATES_CONTRACT as Contract, { built, engine });
    expect(() => serve(servingEngine({}, defaultRouter))).toThrow(
      "the contract uses the engine's states feature, which this Worker was not built with: run npm run build:contract",
    );
    expect(() => serve(servingEngine({ states: STATES_FEATURE }, defaultRouter))).not.toThrow();
  });

  it("names every part missing, and accepts exactly the parts the build gives", async () => {
    const { built, needed } = await prepareBuild(FIXTURE_SECURITY_CONTRACT, {});
    // No operation has a handler: the examples feature too.
    expect(needed.engine).toEqual([...servingFeatures(FIXTURE_SECURITY_CONTRACT), "examples"]);
    expect(needed.engine).toEqual(["rateLimits", "security", "examples"]);
    expect(() =>
      serveApp(FIXTURE_SECURITY_CONTRACT as Contract, {
        built,
        engine: servingEngine({}, defaultRouter),
      }),
    ).toThrow("the engine's rateLimits, security features,");
    expect(() =>
      serveApp(
        FIXTURE_SECURITY_CONTRACT as Contract,
        {
          built,
          ...servedFeatures(needed),
        } as ServeOptions<Contract>,
      ),
    ).not.toThrow();
  });

  it("does not refuse a Worker built without the examples feature: it answers 501 under every setting, and says so", async () => {
    const handlers = FIXTURE_EXAMPLES_HANDLERS as unknown as Parameters<typeof prepareBuild>[1];
    const { built, needed } = await prepareBuild(FIXTURE_EXAMPLES_CONTRACT, handlers);
    expect(needed.engine).toContain("examples");
    const without = { ...needed, engine: needed.engine?.filter((part) => part !== "examples") };
    const env = { UNHANDLED_OPERATIONS: "examples" } as unknown as Env;
    const status = async (parts: typeof needed) => {
      const options = { handlers, built, ...servedFeatures(parts) } as ServeOptions<Contract>;
      const app = serveApp(FIXTURE_EXAMPLES_CONTRACT as Contract, options);
      const answer = await app.fetch(new Request("https://fixture.test/fixture-gadgets"), env);
      return [answer.status, answer.headers.get("answered-by")];
    };
    expect(await status(needed)).toEqual([200, "examples"]);
    // Without its answers the setting fails closed, and says so in the log (unhandled.ts).
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await status(without)).toEqual([501, "501"]);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });
});
