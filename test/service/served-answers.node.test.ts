/**
 * The served document accepts every answer the service gives. Each FIXTURE app, and a
 * contract the importer wrote from the rich FIXTURE document, is probed by the conformance
 * checker (a valid request to each operation, its refusals, the platform's endpoints), and
 * every answer it got is validated against the document the same app serves with Ajv
 * (JSON Schema 2020-12, independent of the validator the checker itself uses): its status,
 * media type, required headers and body must be what the document says. Webhook
 * deliveries are held to the document's `webhooks` the same way.
 *
 * Run in Node: Ajv compiles schemas with `new Function`, which workerd refuses.
 */
import { timingSafeEqual } from "node:crypto";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import type { Contract } from "../../src/contract-language/contract";
import { defineContract } from "../../src/contract-language/define-contract";
import { defineHandlers } from "../../src/contract-language/define-handlers";
import { deliverBatch } from "../../src/engine/events/deliver";
import { enqueueEvents } from "../../src/engine/events/emit";
import {
  FIXTURE_ERROR_BODIES_CONTRACT,
  FIXTURE_ERROR_BODIES_HANDLERS,
} from "../fixtures/error-bodies";
import { FIXTURE_EVENTS_CONTRACT, FIXTURE_EVENTS_HANDLERS } from "../fixtures/events";
import { FIXTURE_HANDLERS, FIXTURE_OPERATIONS_CONTRACT } from "../fixtures/operations";
import { FIXTURE_STYLES_CONTRACT, FIXTURE_STYLES_HANDLERS } from "../fixtures/parameter-styles";
import {
  FIXTURE_RATE_LIMITERS,
  FIXTURE_SECRETS,
  FIXTURE_SECURITY_CONTRACT,
  FIXTURE_SECURITY_HANDLERS,
  FIXTURE_UNBOUND_LIMITER,
  FIXTURE_UNSET_SECRET,
} from "../fixtures/security";
import { FIXTURE_STATES_CONTRACT, fixtureStatesHandlers } from "../fixtures/states";
import { FIXTURE_VERSIONS_HANDLERS, fixtureVersionsContract } from "../fixtures/versions";
import {
  FIXTURE_JWT_VARS,
  FIXTURE_ROTATED_SECRETS,
  FIXTURE_VOCABULARY_CONTRACT,
  FIXTURE_VOCABULARY_HANDLERS,
} from "../fixtures/vocabulary";
import { builtApp } from "../support/built-app";
import { importCase } from "../support/import-case";
import { accessToken, keySetOf, newIssuer } from "../support/issuer";
import { checkConformance } from "../tools/conformance/checker";
import { type Presented, presented, secretCredentials } from "../tools/conformance/credentials";
import { documented, documentedFailures, type SchemaCheck } from "../tools/conformance/documented";

type Json = Record<string, unknown>;

// workerd's constant-time comparison (the engine compares credentials with it), in Node.
const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual?: unknown };
subtle.timingSafeEqual ??= (a: ArrayBuffer, b: ArrayBuffer) =>
  timingSafeEqual(new Uint8Array(a), new Uint8Array(b));

const BASE = "https://served.test";
const DOCUMENT = "https://served-answers.invalid/openapi.json";

/** Ajv 2020 over the whole served document, each schema addressed by its pointer. */
function ajv(document: Json): SchemaCheck {
  const validator = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(validator);
  validator.addSchema(document, DOCUMENT);
  return (pointer, value) => {
    const fragment = pointer
      .slice(2)
      .split("/")
      .map((token) => encodeURI(decodeURIComponent(token)).replaceAll("#", "%23"))
      .join("/");
    const validate = validator.getSchema(`${DOCUMENT}#/${fragment}`);
    if (!validate) return [`no schema at ${pointer}`];
    return validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
  };
}

/** The path template of the served document a concrete path is an instance of (literal first). */
function templateOf(document: Json, path: string): string | undefined {
  const templates = Object.keys((document.paths as Json | undefined) ?? {});
  const matching = templates.filter((template) => {
    const pattern = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith("{") ? "[^/]+" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
      .join("");
    return new RegExp(`^${pattern}$`).test(path);
  });
  return matching.sort((a, b) => a.split("{").length - b.split("{").length)[0];
}

interface Served {
  readonly name: string;
  readonly fetch: (request: Request) => Promise<Response>;
  readonly credentials?: Readonly<Record<string, Presented>>;
  /** Whether its contract declares an XML media type (RFC 7303). */
  readonly xml?: boolean;
}

/**
 * Every answer the checker's probes got from one app, each held to the app's own document
 * with Ajv. An answer to a path or method the document does not have (a 404, a 405) has no
 * operation to be held to, and is counted apart.
 */
async function answersHeldToDocument(app: Served, accept?: string) {
  const answers: { request: Request; response: Response; text: string }[] = [];
  await checkConformance(BASE, {
    ...(app.credentials ? { credentials: app.credentials } : {}),
    fetch: async (sent) => {
      // Asked for another Accept: every probe asks for it instead of its own.
      const headers = new Headers(sent.headers);
      if (accept) headers.set("accept", accept);
      const request = accept ? new Request(sent, { headers }) : sent;
      const response = await app.fetch(request);
      answers.push({ request, response: response.clone(), text: await response.clone().text() });
      return response;
    },
  });
  const document = (await (
    await app.fetch(new Request(`${BASE}/_service/openapi.json`))
  ).json()) as Json;
  const doc = documented(document, ajv);
  const failures: string[] = [];
  let held = 0;
  let xml = 0;
  for (const { request, response, text } of answers) {
    const url = new URL(request.url);
    const template = templateOf(document, url.pathname);
    const method = request.method.toLowerCase();
    const operation = template
      ? (document.paths as Record<string, Json>)[template]?.[method]
      : undefined;
    if (!template || !operation || request.method === "HEAD") continue;
    held += 1;
    if (/[/+]xml\b/.test(response.headers.get("content-type") ?? "")) xml += 1;
    for (const failure of documentedFailures(doc, template, method, response, text))
      failures.push(`${request.method} ${url.pathname} → ${response.status}: ${failure}`);
  }
  return { failures, held, xml, answers: answers.length };
}

/**
 * FIXTURE: an answer that is an intersection of a resource and an object, as an imported
 * `allOf: [$ref, {…}]` is (zod flattens two plain objects into one, but not a reference).
 */
const FixtureBase = z.object({ id: z.string() });
const INTERSECTION = defineContract({
  resources: { FixtureBase },
  operations: {
    fixtureCombined: {
      method: "GET",
      path: "/fixture-combined",
      responses: {
        200: {
          description: "FIXTURE: both halves",
          content: {
            "application/json": z.intersection(FixtureBase, z.object({ label: z.string() })),
          },
        },
      },
    },
  },
});

const secrets = {
  ...FIXTURE_SECRETS,
  ...FIXTURE_ROTATED_SECRETS,
  [FIXTURE_UNSET_SECRET]: "fixture-now-set",
  RESPONSE_VALIDATION: "enforce",
};
/** Workers Rate Limiting, as a binding that always admits (the checker stays within budgets). */
const limiters = Object.fromEntries(
  [...Object.keys(FIXTURE_RATE_LIMITERS), FIXTURE_UNBOUND_LIMITER].map((name) => [
    name,
    { limit: async () => ({ success: true }) },
  ]),
);

describe("the served document accepts every answer the service gives (Ajv, JSON Schema 2020-12)", () => {
  const apps: Served[] = [];
  beforeAll(async () => {
    const env = { ...secrets, ...limiters } as unknown as Env;
    // Each app as it is deployed: built as `npm run build:contract` builds it, then served
    // from what the build made (no converter, no documenter in the Worker).
    const serve = async (contract: Contract, options: { handlers?: object } = {}) => {
      const { app } = await builtApp(contract, options.handlers);
      return (request: Request) => Promise.resolve(app.fetch(request, env));
    };
    const issuer = await newIssuer("fixture-served-answers");
    const jwtEnv = {
      ...env,
      ...FIXTURE_JWT_VARS,
      FIXTURE_JWKS_URL: keySetOf(issuer),
    } as unknown as Env;
    const { app: vocabulary } = await builtApp(
      FIXTURE_VOCABULARY_CONTRACT,
      FIXTURE_VOCABULARY_HANDLERS,
    );
    const token = await accessToken(issuer, {
      issuer: FIXTURE_JWT_VARS.FIXTURE_JWT_ISSUER,
      audience: FIXTURE_JWT_VARS.FIXTURE_JWT_AUDIENCE,
      scopes: ["pets:read", "pets:write"],
    });
    const vocabularyCredentials: Record<string, Presented> = {
      ...secretCredentials(FIXTURE_VOCABULARY_CONTRACT, jwtEnv as never),
    };
    for (const [name, scheme] of Object.entries(FIXTURE_VOCABULARY_CONTRACT.securitySchemes))
      if ("jwt" in scheme) vocabularyCredentials[name] = presented(scheme, token);
    const rich = await importCase("served-answers-rich", {
      yaml: (await import("node:fs")).readFileSync("test/fixtures/openapi/rich-3.1.yaml", "utf8"),
    });
    const conventions = await importCase("served-answers-error-conventions", {
      yaml: (await import("node:fs")).readFileSync(
        "test/fixtures/error-conventions-3.1.yaml",
        "utf8",
      ),
    });
    apps.push(
      {
        name: "FIXTURE operations",
        fetch: await serve(FIXTURE_OPERATIONS_CONTRACT, { handlers: FIXTURE_HANDLERS }),
      },
      {
        name: "FIXTURE vocabulary",
        fetch: (request) => Promise.resolve(vocabulary.fetch(request, jwtEnv)),
        credentials: vocabularyCredentials,
        xml: true,
      },
      {
        name: "FIXTURE security",
        fetch: await serve(FIXTURE_SECURITY_CONTRACT, { handlers: FIXTURE_SECURITY_HANDLERS }),
        credentials: secretCredentials(FIXTURE_SECURITY_CONTRACT, env as never),
      },
      {
        name: "FIXTURE states",
        fetch: await serve(FIXTURE_STATES_CONTRACT, { handlers: fixtureStatesHandlers(new Map()) }),
      },
      {
        name: "FIXTURE events",
        fetch: await serve(FIXTURE_EVENTS_CONTRACT, { handlers: FIXTURE_EVENTS_HANDLERS }),
      },
      {
        name: "FIXTURE parameter styles",
        fetch: await serve(FIXTURE_STYLES_CONTRACT, { handlers: FIXTURE_STYLES_HANDLERS }),
      },
      ...(await Promise.all(
        (["header", "query", "path"] as const).map(async (placement) => ({
          name: `FIXTURE versions (in ${placement})`,
          fetch: await serve(
            fixtureVersionsContract(
              placement === "path" ? { in: "path" } : { in: placement, name: "api-version" },
            ),
            { handlers: FIXTURE_VERSIONS_HANDLERS },
          ),
        })),
      )),
      {
        name: "FIXTURE own error bodies",
        fetch: await serve(FIXTURE_ERROR_BODIES_CONTRACT, {
          handlers: FIXTURE_ERROR_BODIES_HANDLERS,
        }),
      },
      {
        // An answer whose schema is an intersection of objects (an imported allOf): zod
        // strips unknown members of each, so neither branch may say additionalProperties.
        name: "FIXTURE intersection",
        fetch: await serve(INTERSECTION, {
          handlers: defineHandlers(INTERSECTION, {
            fixtureCombined: () => ({ status: 200, body: { id: "c1", label: "FIXTURE" } }),
          }),
        }),
      },
      {
        name: "the rich FIXTURE document, imported",
        fetch: await serve(rich.contract),
      },
      {
        // FastAPI's, JSON:API's, a nested code, Spring Boot's, an enum type, one message.
        name: "the FIXTURE error conventions document, imported",
        fetch: await serve(conventions.contract),
      },
    );
  }, 120_000);

  it("for each app: every answer to a documented operation is what its document documents", async () => {
    const seen: string[] = [];
    for (const app of apps) {
      const started = Date.now();
      const { failures, held } = await answersHeldToDocument(app);
      console.log(`${app.name}: ${held} answers held in ${Date.now() - started} ms`);
      expect(failures, app.name).toEqual([]);
      // Not a vacuous pass: each app gave answers that were held to its document.
      expect(held, app.name).toBeGreaterThan(5);
      seen.push(app.name);
    }
    expect(seen).toHaveLength(apps.length);
  }, 120_000);

  it("XML answers too: asked for in XML, each XML answer (problem+xml included) is read by the served document's own xml objects and held to its schema", async () => {
    const withXml = apps.filter((app) => app.xml);
    expect(withXml.length).toBeGreaterThan(0);
    for (const app of withXml) {
      const { failures, held, xml } = await answersHeldToDocument(
        app,
        "application/xml, application/problem+xml, */*;q=0.1",
      );
      console.log(`${app.name}: ${xml} XML answers of ${held} held`);
      expect(failures, app.name).toEqual([]);
      // Not a vacuous pass: XML answers were given and held.
      expect(xml, app.name).toBeGreaterThan(5);
    }
  }, 120_000);

  it("a webhook delivery is what the document's webhooks say it is", async () => {
    const { app } = await builtApp(FIXTURE_EVENTS_CONTRACT, FIXTURE_EVENTS_HANDLERS);
    const document = (await (await app.request(`${BASE}/_service/openapi.json`)).json()) as Json;
    const doc = documented(document, ajv);
    const queued: { body: unknown }[] = [];
    const env = {
      EVENTS: { sendBatch: async (messages: { body: unknown }[]) => void queued.push(...messages) },
      WEBHOOK_DESTINATIONS: JSON.stringify([
        {
          url: "https://receiver.example/hooks",
          events: ["fixtureParcelShipped"],
          secret: "WEBHOOK_KEY",
        },
      ]),
      WEBHOOK_KEY: `whsec_${btoa("fixture-served-answers-key-0123456789")}`,
    };
    const outcome = await enqueueEvents(
      FIXTURE_EVENTS_CONTRACT,
      [{ event: "fixtureParcelShipped", payload: { id: "p1", weight: 2 } }],
      env,
      "enforce",
      { requestId: "fixture", operationId: "fixtureShipParcel" },
    );
    expect(outcome).toBe("queued");
    const sent: string[] = [];
    const fetched = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      sent.push(String((init as RequestInit | undefined)?.body ?? (input as Request).body));
      return new Response(null, { status: 200 });
    });
    await deliverBatch(
      {
        messages: queued.map((m, i) => ({
          id: `m${i}`,
          body: m.body,
          attempts: 1,
          ack() {},
          retry() {},
        })),
      },
      env,
    );
    fetched.mockRestore();
    expect(sent).toHaveLength(1);
    const pointer =
      "#/webhooks/fixtureParcelShipped/post/requestBody/content/application~1json/schema";
    expect(doc.check(pointer, JSON.parse(sent[0] as string))).toEqual([]);
  });
});
