/**
 * The operational endpoints under /_service, through the deployed entry inside workerd.
 * They exist whatever the contract declares; what they say of the contract is derived
 * here from the shipped contract, so these tests hold for an empty one and a full one.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { contract } from "../../src/contract";
import { countOf, SPEC_PARTS } from "../../src/contract-language/parts";
import { operationAnchor } from "../../src/platform/reference/operation";
import { expectPlatformHeaders, expectProblem } from "../support/assertions";
import { emptyApp } from "../support/fixture-app";

/** What the shipped contract declares, part by part, counted as the report counts it. */
const DECLARED = SPEC_PARTS.map((part) => part.count(contract));
const SPECIFIED = DECLARED.filter((n) => n > 0).length;

const BASE = "https://fixture.test";
const call = (path: string, init?: RequestInit) => exports.default.fetch(`${BASE}${path}`, init);
const BROWSER_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

describe("GET /_service/health", () => {
  it("answers 200 with a health document and Cache-Control: no-store", async () => {
    const res = await call("/_service/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/health+json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expectPlatformHeaders(res);
    expect(await res.json()).toEqual({ status: "pass" });
  });

  it("answers HEAD with the same status and headers and no body (RFC 9110 §9.3.2)", async () => {
    const [get, head] = [
      await call("/_service/health"),
      await call("/_service/health", { method: "HEAD" }),
    ];
    expect(head.status).toBe(200);
    for (const name of ["content-type", "cache-control", "content-security-policy"]) {
      expect(head.headers.get(name)).toBe(get.headers.get(name));
    }
    expectPlatformHeaders(head);
    expect(await head.text()).toBe("");
  });

  it.each(["POST", "PUT", "PATCH", "DELETE", "TRACE", "PROPFIND"])(
    "answers %s with 405 and Allow (RFC 9110 §15.5.6)",
    async (method) => {
      const res = await call("/_service/health", { method });
      expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      const body = await expectProblem(res, 405);
      expect(body.type).toBe("about:blank");
      expect(body.title).toBe("Method Not Allowed");
    },
  );

  it("answers OPTIONS with 204 and Allow (RFC 9110 §9.3.7)", async () => {
    const res = await call("/_service/health", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expectPlatformHeaders(res);
    expect(await res.text()).toBe("");
  });
});

describe("GET /_service/interface", () => {
  interface Report {
    description: string;
    specifiedParts: number;
    totalParts: number;
    parts: { number: number; name: string; title: string; specified: boolean; source: string }[];
  }

  it.each([
    ["no Accept", undefined],
    ["*/*", "*/*"],
    ["application/json", "application/json"],
  ])("answers JSON with %s", async (_label, accept) => {
    const res = await call("/_service/interface", accept ? { headers: { accept } } : undefined);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("vary")).toBe("accept");
    expectPlatformHeaders(res);
    const report = (await res.json()) as Report;
    expect(report.parts).toHaveLength(9);
    expect(report.specifiedParts).toBe(SPECIFIED);
    for (const [i, part] of report.parts.entries()) {
      expect(part.number).toBe(i + 1);
      expect(part.name).toBe(SPEC_PARTS[i]?.name);
      expect(part.specified).toBe((DECLARED[i] ?? 0) > 0);
    }
  });

  it.each([
    ["a browser's Accept", BROWSER_ACCEPT],
    ["text/html preferred by q", "application/json;q=0.5, text/html;q=0.9"],
  ])("answers an HTML table of the nine parts for %s", async (_label, accept) => {
    const res = await call("/_service/interface", { headers: { accept } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("vary")).toBe("accept");
    expectPlatformHeaders(res, "html");
    const html = await res.text();
    const json = (await (await call("/_service/interface")).json()) as Report;
    for (const part of json.parts) expect(html).toContain(part.title);
    expect(html.match(/<tr><td class="num">/g)).toHaveLength(9);
    expect(html.match(/>not specified</g) ?? []).toHaveLength(9 - SPECIFIED);
    expect(html).toContain(`${SPECIFIED} of 9`);
    // Counts in words: "1 operation", "0 state machines", never "0 stateMachines".
    for (const [i, part] of SPEC_PARTS.entries())
      expect(html).toContain(`<td>${countOf(part, DECLARED[i] ?? 0)}</td>`);
    expect(html).not.toMatch(/\b1 [a-z]+s</);
  });

  it("prefers JSON when the client ranks it higher", async () => {
    const res = await call("/_service/interface", {
      headers: { accept: "text/html;q=0.2, application/json" },
    });
    expect(res.headers.get("content-type")).toBe("application/json");
  });
});

describe("GET /_service/openapi.json", () => {
  it("serves the OpenAPI 3.1 document derived from the shipped contract", async () => {
    const res = await call("/_service/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expectPlatformHeaders(res);
    const doc = (await res.json()) as { openapi: string; paths: object; webhooks: object };
    expect(doc.openapi).toBe("3.1.1");
    expect(Object.keys(doc.webhooks)).toEqual(Object.keys(contract.events));
  });
});

describe("GET /_service/reference", () => {
  it("serves the reference the build wrote of the shipped document, each path of it shown", async () => {
    const res = await call("/_service/reference", { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expectPlatformHeaders(res, "html");
    const page = await res.text();
    const doc = (await (await call("/_service/openapi.json")).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      // The platform's endpoints are listed by path; each operation of the interface has a section.
      if (path.startsWith("/_service/")) expect(page).toContain(`<code>${path}</code>`);
      else
        for (const [method, operation] of Object.entries(item))
          if (method !== "options")
            expect(page).toContain(`id="${operationAnchor(operation.operationId)}"`);
    }
  });
});

describe("problem type pages", () => {
  it("resolve the 501 problem's type URI to a human-readable page (RFC 9457 §3.1.1)", async () => {
    // Part 4's 501 exists while it declares nothing; its page exists in every deployment.
    const empty = emptyApp();
    const answer = await empty.fetch(new Request(`${BASE}/fixture-path`), env);
    const problem = (await answer.json()) as { type: string; title: string };
    const url = new URL(problem.type, `${BASE}/fixture-path`);
    expect(url.origin).toBe(BASE);
    const res = await exports.default.fetch(url.href, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expectPlatformHeaders(res, "html");
    const html = await res.text();
    expect(html).toContain(`<h1>${problem.title}</h1>`);
    expect(html).toContain("501");
  });

  it("load their stylesheet from the path the pages link to", async () => {
    const res = await call("/_service/style.css");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await res.text()).toContain("table");
  });
});

describe("unknown paths under /_service", () => {
  it.each([
    "/_service",
    "/_service/",
    "/_service/nope",
    "/_service/health/",
    "/_service/problems/nope",
    "/_service/HEALTH",
  ])("answer %s with a 404 problem", async (path) => {
    const body = await expectProblem(await call(path), 404);
    expect(body.type).toBe("about:blank");
    expect(body.title).toBe("Not Found");
  });

  it("answer any method with 404, not 405, since no resource exists there", async () => {
    await expectProblem(await call("/_service/nope", { method: "DELETE" }), 404);
  });

  it("normalise dot segments and encoded unreserved characters (RFC 3986 §5.2.4, §6.2.2.2)", async () => {
    for (const path of ["/x/../_service/health", "/%2e%2e/_service/health", "/%5Fservice/health"]) {
      expect((await call(path)).status).toBe(200);
    }
  });
});

describe("validators of the no-cache documents (RFC 9110 §8.8.3, §13.1.2)", () => {
  it.each([
    ["/_service/openapi.json", undefined],
    ["/_service/interface", "application/json"],
    ["/_service/interface", "text/html"],
  ])(
    "%s (%s) carries an ETag, and a matching If-None-Match gets 304 without a body",
    async (path, accept) => {
      const headers: Record<string, string> = accept ? { accept } : {};
      const first = await call(path, { headers });
      const etag = first.headers.get("etag");
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      const again = await call(path, {
        headers: { ...headers, "if-none-match": `W/${etag}, "other"` },
      });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("cache-control")).toBe(first.headers.get("cache-control"));
      expectPlatformHeaders(again, accept === "text/html" ? "html" : "api");
      const stale = await call(path, { headers: { ...headers, "if-none-match": '"stale"' } });
      expect(stale.status).toBe(200);
    },
  );

  it("the JSON and HTML forms of the report have different tags", async () => {
    const json = await call("/_service/interface");
    const html = await call("/_service/interface", { headers: { accept: "text/html" } });
    expect(json.headers.get("etag")).not.toBe(html.headers.get("etag"));
  });
});
