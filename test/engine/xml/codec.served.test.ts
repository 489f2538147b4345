/**
 * XML as the contract declares it, through the FIXTURE vocabulary app inside workerd: a
 * request body of an XML type (RFC 7303) is read by its schema's `xml` objects (OpenAPI 3.1
 * §4.8.26) and validated like JSON (400 malformed, 413 by the bytes, 422 with JSON
 * Pointers); an XML answer is written from the object the handler returns; problems are
 * `application/problem+xml` (RFC 9457 Appendix B) when the request's Accept negotiates it
 * (RFC 9110 §12.5.1); and whatever a browser, curl or a client sends as Accept, every
 * operation answers a declared media type or 406, never a 5xx.
 */
import { env } from "cloudflare:workers";
import { XMLParser } from "fast-xml-parser";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import type { Operation } from "../../../src/contract-language/contract";
import { XML_CODEC } from "../../../src/engine/xml/codec";
import {
  FIXTURE_ROTATED_SECRETS,
  FIXTURE_VOCABULARY_CONTRACT,
  FIXTURE_VOCABULARY_HANDLERS,
} from "../../fixtures/vocabulary";
import { expectPlatformHeaders, expectProblem } from "../../support/assertions";
import { callVocabulary, withKey } from "../../support/vocabulary-app";

afterEach(() => vi.restoreAllMocks());

const KEY = FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY;
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

const SHELF_XML =
  '<shelf xmlns="urn:fixture:shelves" id="7" is-open="true">' +
  '<fl:title xmlns:fl="urn:fixture:labels">Fixture</fl:title>' +
  '<books><book isbn="0-1"><pages>12</pages></book></books><tag>a</tag><tag>b</tag></shelf>';
const SHELF = {
  id: 7,
  open: true,
  label: "Fixture",
  books: [{ isbn: "0-1", pages: 12 }],
  tags: ["a", "b"],
};

const shelve = (body: BodyInit, headers: Record<string, string> = {}) =>
  callVocabulary("/fixture-bodies/xml", {
    method: "POST",
    headers: { "content-type": "application/xml", ...headers },
    body,
  });

/** An XML problem (RFC 9457 Appendix B) as an object of its members' texts. */
async function xmlProblem(res: Response, status: number): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+xml");
  expect(res.headers.get("vary")).toMatch(/accept/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expectPlatformHeaders(res);
  const text = await res.text();
  expect(text.startsWith(`${DECLARATION}<problem xmlns="urn:ietf:rfc:7807">`)).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(text) as {
    problem: Record<string, unknown>;
  };
  expect(parsed.problem.status).toBe(String(status));
  expect(parsed.problem.requestId).toBe(res.headers.get("x-request-id"));
  return parsed.problem;
}

describe("an XML request body, read by its schema's xml objects (OpenAPI 3.1 §4.8.26)", () => {
  it("reaches the handler as the object its schema describes, and is answered as JSON or XML from it", async () => {
    const json = await shelve(SHELF_XML, { accept: "application/json" });
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(SHELF);
    const xml = await shelve(SHELF_XML, { accept: "application/xml" });
    expect(xml.status).toBe(200);
    expect(xml.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(xml.headers.get("vary")).toBe("accept");
    expectPlatformHeaders(xml);
    expect(await xml.text()).toBe(`${DECLARATION}${SHELF_XML}`);
  });

  it("is validated like JSON: every violation at once, with JSON Pointers into the object (422, presented as the FIXTURE 400)", async () => {
    const res = await shelve(
      '<shelf xmlns="urn:fixture:shelves" id="0"><books><book isbn="0-1"><pages>many</pages></book></books></shelf>',
    );
    // The FIXTURE error model presents validation failures as its own 400.
    const body = await expectProblem(res, 400);
    expect(body.type).toBe("https://errors.fixture.test/invalid-input");
    expect(body.errors).toEqual([
      { in: "body", pointer: "#/id", detail: "Must be at least 1." },
      { in: "body", pointer: "#/label", detail: "Is required." },
      { in: "body", pointer: "#/books/0/pages", detail: expect.stringMatching(/^Must be of type/) },
    ]);
    // The same object sent as JSON is refused in the same words.
    const json = await callVocabulary("/fixture-bodies/xml", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: 0, books: [{ isbn: "0-1", pages: "many" }] }),
    });
    expect((await expectProblem(json, 400)).errors).toEqual(body.errors);
  });

  it("is 400 when it is not well-formed, has a DOCTYPE (OWASP XXE Prevention) or another root", async () => {
    for (const text of [
      "<shelf><books></shelf>",
      '<!DOCTYPE shelf [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><shelf>&b;</shelf>',
      '<!DOCTYPE shelf [<!ENTITY x SYSTEM "file:///etc/passwd">]><shelf>&x;</shelf>',
      '<box xmlns="urn:fixture:shelves" id="1"/>',
      "",
      new Uint8Array([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e]),
    ]) {
      const body = await expectProblem(await shelve(text), 400);
      expect(body.type).toBe("https://errors.fixture.test/invalid-input");
      expect(body.errors).toBeUndefined();
    }
  });

  it("counts its bytes against the body cap (413), and its media type and charset (415)", async () => {
    const app = createApp(FIXTURE_VOCABULARY_CONTRACT, {
      engine: BUILD_ENGINE,
      handlers: FIXTURE_VOCABULARY_HANDLERS,
      jsonSchema: z.toJSONSchema,
      xml: XML_CODEC,
      maxBodyBytes: 512,
    });
    const big = SHELF_XML.replace("<tag>a</tag>", "<tag>a</tag>".repeat(60));
    const res = await app.fetch(
      new Request("https://fixture.test/fixture-bodies/xml", {
        method: "POST",
        headers: { "content-type": "application/xml" },
        body: new Blob([big]).stream(),
        duplex: "half",
      } as RequestInit),
      env,
    );
    expect((await expectProblem(res, 413)).maxBytes).toBe(512);
    await expectProblem(await shelve(SHELF_XML, { "content-type": "application/atom+xml" }), 415);
    await expectProblem(
      await shelve(SHELF_XML, { "content-type": "application/xml; charset=iso-8859-1" }),
      415,
    );
    expect(
      (await shelve(SHELF_XML, { "content-type": "application/xml; charset=UTF-8" })).status,
    ).toBe(200);
  });
});

describe("an XML answer, written from the object the handler returns", () => {
  it("writes the pet object as <pet> by its xml object, the id an attribute", async () => {
    const res = await callVocabulary(
      "/fixture-pets/p7",
      withKey(KEY, { headers: { accept: "application/xml" } }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(`${DECLARATION}<pet id="p7"><name>anonymous</name></pet>`);
  });
});

describe("problems as application/problem+xml (RFC 9457 Appendix B), when Accept negotiates it", () => {
  const malformed = "<shelf><books></shelf>";

  it("asked for by name: the problem's members as elements in urn:ietf:rfc:7807, arrays as <i>", async () => {
    const res = await shelve('<shelf xmlns="urn:fixture:shelves" id="1"><books/></shelf>', {
      accept: "application/json, application/problem+xml",
    });
    const problem = await xmlProblem(res, 400);
    expect(problem.type).toBe("https://errors.fixture.test/invalid-input");
    expect(problem.errors).toEqual({
      i: { in: "body", pointer: "#/label", detail: "Is required." },
    });
  });

  it.each([
    ["application/json, application/problem+xml", "xml"],
    ["application/xml, application/problem+json;q=0.5, application/problem+xml", "xml"],
    ["application/xml, application/problem+json", "json"],
    // Neither problem type named, or both alike: as the operation answers, XML here.
    ["application/xml", "xml"],
    ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "xml"],
    ["*/*", "xml"],
    ["application/json", "json"],
    ["application/json;q=0.9, application/xml;q=0.5", "json"],
    [undefined, "json"],
  ])("Accept %s gets a %s problem, with Vary: Accept", async (accept, form) => {
    const res = await shelve(malformed, accept ? { accept } : {});
    if (form === "xml") await xmlProblem(res, 400);
    else {
      await expectProblem(res, 400);
      expect(res.headers.get("vary")).toMatch(/accept/);
    }
  });

  it("for an operation that answers JSON, a browser's Accept and */* keep JSON; asked by name, XML", async () => {
    const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    const init = (accept: string) => ({
      method: "POST",
      headers: { "content-type": "application/json", accept },
      body: JSON.stringify({ amount: 0, cardNumber: "4111", securityCode: "123" }),
    });
    await expectProblem(await callVocabulary("/fixture-payments", init(browser)), 400);
    await expectProblem(await callVocabulary("/fixture-payments", init("*/*")), 400);
    await xmlProblem(
      await callVocabulary("/fixture-payments", init("application/json, application/problem+xml")),
      400,
    );
  });

  it("every problem of an operation, a 401 with its challenge and a thrown error's 500 included", async () => {
    const res = await callVocabulary("/fixture-pets/p7", {
      headers: { accept: "application/xml" },
    });
    await xmlProblem(res, 401);
    expect(res.headers.get("www-authenticate")).toContain("ApiKey");
    vi.spyOn(console, "error").mockImplementation(() => {});
    const app = createApp(FIXTURE_VOCABULARY_CONTRACT, {
      engine: BUILD_ENGINE,
      jsonSchema: z.toJSONSchema,
      xml: XML_CODEC,
      handlers: {
        fixtureShelve: () => {
          throw new Error("FIXTURE failure");
        },
      },
    });
    const thrown = await app.fetch(
      new Request("https://fixture.test/fixture-bodies/xml", {
        method: "POST",
        headers: { "content-type": "application/xml", accept: "application/xml" },
        body: SHELF_XML,
      }),
      env,
    );
    const problem = await xmlProblem(thrown, 500);
    expect(JSON.stringify(problem)).not.toContain("FIXTURE failure");
  });

  it("the platform's own paths keep JSON: only operations negotiate", async () => {
    const res = await callVocabulary("/fixture-nowhere", {
      headers: { accept: "application/problem+xml" },
    });
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });
});

/** A valid request to each operation of the FIXTURE vocabulary, by operation id. */
function validRequests(): Record<string, () => [string, RequestInit]> {
  const json = (body: unknown) => ({
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return {
    fixtureCreatePet: () => [
      "/fixture-pets",
      withKey(KEY, { method: "POST", ...json({ name: "Rex" }) }),
    ],
    fixtureGetPet: () => ["/fixture-pets/p1", withKey(KEY)],
    fixtureLegacyPet: () => ["/fixture-pets/p1", withKey(KEY, { method: "DELETE" })],
    fixturePay: () => [
      "/fixture-payments",
      {
        method: "POST",
        ...json({ amount: 5, cardNumber: "4111111111111111", securityCode: "123" }),
      },
    ],
    fixtureForm: () => [
      "/fixture-bodies/form",
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "name=x",
      },
    ],
    fixtureMultipart: () => {
      const form = new FormData();
      form.append("title", "t");
      form.append("file", new File(["x"], "x.txt"));
      return ["/fixture-bodies/multipart", { method: "POST", body: form }];
    },
    fixtureText: () => [
      "/fixture-bodies/text",
      { method: "POST", headers: { "content-type": "text/plain" }, body: "words" },
    ],
    fixtureShelve: () => [
      "/fixture-bodies/xml",
      { method: "POST", headers: { "content-type": "application/xml" }, body: SHELF_XML },
    ],
    fixtureStatuses: () => ["/fixture-statuses?status=200", {}],
    fixtureBinary: () => [
      "/fixture-bodies/binary",
      {
        method: "PUT",
        headers: { "content-type": "application/octet-stream" },
        body: new Uint8Array([1]),
      },
    ],
  };
}

describe("any Accept a browser, curl or a client sends: a declared media type or 406, never a 5xx (RFC 9110 §12.5.1, §15.5.7)", () => {
  const ACCEPTS = [
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    "*/*",
    "application/json",
    "application/xml",
    "application/problem+xml",
    "text/plain",
    "image/png",
    undefined,
  ];

  it("for every operation of the FIXTURE vocabulary", async () => {
    const requests = validRequests();
    // No operation is left out.
    expect(Object.keys(requests).sort()).toEqual(
      Object.keys(FIXTURE_VOCABULARY_CONTRACT.operations).sort(),
    );
    const failures: string[] = [];
    for (const [id, make] of Object.entries(requests)) {
      const operation = (
        FIXTURE_VOCABULARY_CONTRACT.operations as Readonly<Record<string, Operation>>
      )[id];
      for (const accept of ACCEPTS) {
        const [path, init] = make();
        const headers = {
          ...(init.headers as Record<string, string>),
          ...(accept ? { accept } : {}),
        };
        const res = await callVocabulary(path, { ...init, headers });
        const type = res.headers.get("content-type")?.split(";")[0] ?? "";
        const declared = Object.keys(operation?.responses[res.status]?.content ?? {});
        const fine =
          res.status < 500 &&
          (res.status === 406 ||
            (res.status < 300
              ? type === "" || declared.includes(type)
              : type === "application/problem+json" || type === "application/problem+xml"));
        if (!fine) failures.push(`${id} with Accept ${String(accept)}: ${res.status} ${type}`);
        await res.arrayBuffer();
      }
    }
    expect(failures).toEqual([]);
  });
});
