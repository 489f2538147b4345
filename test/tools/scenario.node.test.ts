/**
 * The scenario walk (scenario.ts) can fail: over the FIXTURE pets sandbox, served in Node
 * with its records in memory, answers changed on their way out are found, each with its
 * class, and an untouched run finds none. Ajv holds the answers to the served document.
 */
import { timingSafeEqual } from "node:crypto";
import { describe, expect, it } from "vitest";
import { UNHANDLED_VAR } from "../../src/engine/operations/unhandled-setting";
import { SANDBOX_BINDING } from "../../src/mocks/sandbox/records";
import { FIXTURE_SANDBOX_PETS_CONTRACT } from "../fixtures/sandbox";
import { builtApp } from "../support/built-app";
import { memorySandbox } from "../support/memory-sandbox";
import { ajvCheck } from "./ajv-check";
import { classOf, scenario } from "./scenario";

// workerd's constant-time comparison (the engine compares credentials with it), in Node.
const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual?: unknown };
subtle.timingSafeEqual ??= (a: ArrayBuffer, b: ArrayBuffer) =>
  timingSafeEqual(new Uint8Array(a), new Uint8Array(b));

type Change = (request: Request, response: Response) => Promise<Response>;

/** The pets sandbox, each answer passed through `change` before the walk reads it. */
async function walked(change: Change = async (_, response) => response) {
  const { app } = await builtApp(FIXTURE_SANDBOX_PETS_CONTRACT, {});
  const env = {
    RESPONSE_VALIDATION: "off",
    [UNHANDLED_VAR]: "sandbox",
    [SANDBOX_BINDING]: memorySandbox(),
  } as unknown as Env;
  return scenario(FIXTURE_SANDBOX_PETS_CONTRACT, {
    validator: ajvCheck,
    fetch: async (request) => change(request, await app.fetch(request.clone(), env)),
  });
}

/** The answer with its JSON body changed by `edit`, its headers as they were. */
async function withBody(response: Response, edit: (body: Record<string, unknown>) => void) {
  const body = (await response.json()) as Record<string, unknown>;
  edit(body);
  return new Response(JSON.stringify(body), response);
}

const classes = (report: Awaited<ReturnType<typeof walked>>) =>
  [...new Set(report.invalid.flatMap((answer) => answer.classes))].sort();

describe("the scenario walk", () => {
  it("walks every step of the pets sandbox and finds nothing its document does not give", async () => {
    const report = await walked();
    expect(report.resources).toEqual(["FixturePet at /fixture-pets"]);
    expect(new Set(report.ran.map((step) => step.step))).toEqual(
      new Set(["create", "read", "list", "replace", "update", "transition", "delete", "gone"]),
    );
    expect(report.ran.filter((step) => step.step === "gone").map((step) => step.status)).toEqual([
      404, 404,
    ]);
    expect({ invalid: report.invalid, notRun: report.notRun, unmet: report.unmet }).toEqual({
      invalid: [],
      notRun: [],
      unmet: [],
    });
  });

  it("finds a missing required member, a broken pattern and a missing required header", async () => {
    const report = await walked(async (request, response) => {
      if (request.method === "GET" && response.status === 200 && !request.url.endsWith(".json"))
        return withBody(response, (body) => {
          if (Array.isArray(body)) return;
          delete body.name;
        });
      if (request.method === "PUT") return withBody(response, (body) => (body.id = "not-a-uuid"));
      if (request.method === "POST" && response.status === 201) {
        const headers = new Headers(response.headers);
        headers.delete("location");
        return new Response(response.body, { status: 201, headers });
      }
      return response;
    });
    expect(classes(report)).toEqual([
      "create (POST): required header location missing",
      "read (GET): required member name missing",
      "replace (PUT): a value breaks a pattern",
    ]);
    expect(report.invalid.find((a) => a.step === "read")?.label).toMatch(
      /^GET \/fixture-pets\/[0-9a-f-]{36} → 200$/,
    );
  });

  it("finds a status the document does not give, and a delete that is not 404 once deleted", async () => {
    const report = await walked(async (request, response) =>
      request.method === "DELETE" ? new Response(null, { status: 202 }) : response,
    );
    expect(classes(report)).toEqual([
      "delete (DELETE): status 202 is not documented",
      "gone (DELETE): status 202 is not documented",
    ]);
    expect(
      report.unmet.some((line) => /gone \(fixtureDeletePet\) DELETE .* → 202, not 404$/.test(line)),
    ).toBe(true);
  });

  it("names a failure's class without the values that differ between answers", () => {
    expect(
      classOf(
        "the body does not match the documented schema (/ must have required property 'label')",
      ),
    ).toBe("required member label missing");
    expect(
      classOf('the body does not match the documented schema (/sid must match pattern "^AC")'),
    ).toBe("a value breaks a pattern");
  });
});
