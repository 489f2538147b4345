/**
 * A battery of hostile requests, each sent to the app of a contract that declares nothing
 * (part 4's 501 everywhere) and to the FIXTURE operations app inside workerd: path tricks, unusual methods, header abuse and body abuse.
 * Every answer must come within a bound, carry the platform headers, be a well-formed
 * problem (RFC 9457) with the expected status wherever it is an error, never be a 500, and
 * never echo what was sent.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectPlatformHeaders, expectProblem } from "../support/assertions";
import { emptyApp, fixtureApp } from "../support/fixture-app";
import { callSecured } from "../support/security-app";

const BASE = "https://hostile.test";
const MARKER = "hostileMarker7f3a";
const KIB = 1024;
const CAP = 1_048_576; // the platform's default body cap (reported in platformDefaults)

interface Hostile {
  readonly label: string;
  readonly path: string;
  /** A function where the init holds a stream, which each target must get afresh. */
  readonly init?: RequestInit | (() => RequestInit);
  /** Expected status from the app of an empty contract (part 4 unspecified) and from the fixture app. */
  readonly empty: number;
  readonly fixture: number;
}

const json = (body: BodyInit, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body,
});
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const chunked = (chunks: number, size: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"name":"'));
      for (let i = 0; i < chunks; i++) controller.enqueue(new Uint8Array(size).fill(0x61));
      controller.enqueue(new TextEncoder().encode('","size":1}'));
      controller.close();
    },
  });

const HOSTILE: readonly Hostile[] = [
  // Path tricks. The URL parser resolves dot segments, also percent-encoded ones, before
  // any routing (WHATWG URL; RFC 3986 §5.2.4), so none can climb out of a path.
  { label: "encoded dot segments", path: `/%2e%2e/%2e%2e/${MARKER}`, empty: 501, fixture: 404 },
  {
    label: "dot segments into /_service",
    path: `/${MARKER}/../_service/${MARKER}`,
    empty: 404,
    fixture: 404,
  },
  {
    label: "dot segments out of /_service",
    path: `/_service/%2e%2e/${MARKER}`,
    empty: 501,
    fixture: 404,
  },
  { label: "an encoded NUL", path: `/${MARKER}%00`, empty: 501, fixture: 404 },
  {
    label: "an encoded NUL in a path parameter",
    path: "/fixture-widgets/w1%00",
    empty: 501,
    fixture: 422,
  },
  { label: "overlong UTF-8 dots", path: `/%c0%ae%c0%ae/${MARKER}`, empty: 501, fixture: 404 },
  { label: "a lone surrogate, encoded", path: `/%ed%a0%80${MARKER}`, empty: 501, fixture: 404 },
  { label: "a 16 KiB path", path: `/${"a".repeat(16 * KIB)}${MARKER}`, empty: 501, fixture: 404 },
  {
    label: "a 16 KiB path parameter",
    path: `/fixture-widgets/${"w".repeat(16 * KIB)}`,
    empty: 501,
    fixture: 422,
  },
  {
    label: "an empty first segment (//)",
    path: `//fixture-widgets/${MARKER}`,
    empty: 501,
    fixture: 404,
  },
  {
    label: "a doubled slash under /_service",
    path: "/_service//health",
    empty: 404,
    fixture: 404,
  },
  {
    // WHATWG URL: a backslash is a slash in an https URL, so this is //_service/health,
    // whose first segment is empty: outside /_service.
    label: "backslashes",
    path: "/\\_service\\health",
    empty: 501,
    fixture: 404,
  },
  {
    // workerd keeps a method up to a NUL byte: this one arrives as GET.
    label: "a method with a NUL byte",
    path: "/fixture-widgets",
    init: { method: "GET\u0000DELETE" },
    empty: 501,
    fixture: 200,
  },
  { label: "an encoded slash", path: "/_service%2Fhealth", empty: 501, fixture: 404 },
  { label: "non-ASCII segments", path: `/ü/😀/${MARKER}`, empty: 501, fixture: 404 },
  {
    label: "prototype names in the query",
    path: "/fixture-widgets?__proto__[x]=1&constructor[prototype][y]=1&limit=5",
    empty: 501,
    fixture: 200,
  },
  {
    label: "a number too large for a page size",
    path: "/fixture-widgets?limit=1e999",
    empty: 501,
    fixture: 422,
  },
  {
    label: "a 4 KiB query value",
    path: `/fixture-widgets?limit=${"9".repeat(4 * KIB)}`,
    empty: 501,
    fixture: 422,
  },
  // Unusual methods, as workerd lets a Worker see them.
  {
    label: "TRACE on a declared path",
    path: "/fixture-widgets",
    init: { method: "TRACE" },
    empty: 501,
    fixture: 405,
  },
  {
    label: "PROPFIND (WebDAV)",
    path: "/fixture-widgets",
    init: { method: "PROPFIND" },
    empty: 501,
    fixture: 405,
  },
  { label: "QUERY", path: `/${MARKER}`, init: { method: "QUERY" }, empty: 501, fixture: 404 },
  {
    label: "lowercase get (normalised by fetch)",
    path: "/fixture-widgets",
    init: { method: "get" },
    empty: 501,
    fixture: 200,
  },
  {
    // The fetch standard normalises only six methods; workerd upper-cases every method, so
    // "patch" is PATCH, here without its required body.
    label: "lowercase patch (workerd upper-cases it)",
    path: "/fixture-widgets/w1",
    init: { method: "patch" },
    empty: 501,
    fixture: 400,
  },
  // Header abuse.
  {
    label: "a 64 KiB Authorization header",
    path: `/${MARKER}`,
    init: { headers: { authorization: `Bearer ${"A".repeat(64 * KIB)}` } },
    empty: 501,
    fixture: 404,
  },
  {
    label: "two Content-Types",
    path: "/fixture-widgets",
    init: {
      method: "POST",
      headers: [
        ["content-type", "application/json"],
        ["content-type", "text/plain"],
      ],
      body: "{}",
    },
    empty: 501,
    fixture: 415,
  },
  {
    label: "a Content-Type without a subtype",
    path: "/fixture-widgets",
    init: json("{}", { "content-type": "application" }),
    empty: 501,
    fixture: 415,
  },
  {
    label: "a Content-Type with a broken parameter",
    path: "/fixture-widgets",
    init: json("{}", { "content-type": "application/json; charset" }),
    empty: 501,
    fixture: 415,
  },
  {
    label: "a charset that is not UTF-8",
    path: "/fixture-widgets",
    init: json("{}", { "content-type": "application/json; charset=latin1" }),
    empty: 501,
    fixture: 415,
  },
  {
    label: "a Content-Length that is not a number",
    path: "/fixture-widgets",
    init: json('{"name":"a","size":1}', { "content-length": "1e3" }),
    empty: 501,
    fixture: 400,
  },
  {
    label: "a negative Content-Length",
    path: "/fixture-widgets",
    init: json('{"name":"a","size":1}', { "content-length": "-1" }),
    empty: 501,
    fixture: 400,
  },
  {
    label: "a Content-Length over the cap on a small body",
    path: "/fixture-widgets",
    init: json('{"name":"a","size":1}', { "content-length": String(CAP + 1) }),
    empty: 501,
    fixture: 413,
  },
  {
    label: "a request id made to inject markup",
    path: `/${MARKER}`,
    init: { headers: { "x-request-id": `<script>${MARKER}</script>` } },
    empty: 501,
    fixture: 404,
  },
  {
    label: "two hundred extra headers",
    path: `/${MARKER}`,
    init: {
      headers: Object.fromEntries(
        Array.from({ length: 200 }, (_, i) => [`x-hostile-${i}`, MARKER]),
      ),
    },
    empty: 501,
    fixture: 404,
  },
  // Body abuse.
  {
    label: "malformed JSON",
    path: "/fixture-widgets",
    init: json(`{"name":"${MARKER}",`),
    empty: 501,
    fixture: 400,
  },
  {
    label: "truncated JSON",
    path: "/fixture-widgets",
    init: json(`{"name":"${MARKER}","size":1`),
    empty: 501,
    fixture: 400,
  },
  {
    // V8 parses this depth without exhausting its stack; the schema then refuses the array.
    label: "JSON nested 100 000 deep",
    path: "/fixture-widgets",
    init: json(nested(100_000)),
    empty: 501,
    fixture: 422,
  },
  {
    label: "JSON nested 1 000 deep inside an object",
    path: "/fixture-widgets",
    init: json(`{"name":${nested(1000)},"size":1}`),
    empty: 501,
    fixture: 422,
  },
  {
    label: "invalid UTF-8",
    path: "/fixture-widgets",
    init: json(new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d])),
    empty: 501,
    fixture: 400,
  },
  {
    label: "a __proto__ member",
    path: "/fixture-widgets",
    init: json(`{"__proto__":{"isAdmin":true},"name":"${MARKER}","size":1}`),
    empty: 501,
    fixture: 400,
  },
  {
    label: "an escaped __proto__ member",
    path: "/fixture-widgets",
    init: json('{"\\u005f_proto__":{"x":1},"name":"a","size":1}'),
    empty: 501,
    fixture: 400,
  },
  {
    label: "constructor.prototype",
    path: "/fixture-widgets",
    init: json('{"constructor":{"prototype":{"x":1}},"name":"a","size":1}'),
    empty: 501,
    fixture: 400,
  },
  { label: "an empty body", path: "/fixture-widgets", init: json(""), empty: 501, fixture: 400 },
  {
    label: "a number that overflows to Infinity",
    path: "/fixture-widgets",
    init: json('{"name":"a","size":1e400}'),
    empty: 501,
    fixture: 422,
  },
  {
    label: "a body over the cap with Content-Length",
    path: "/fixture-widgets",
    init: json(`"${"x".repeat(CAP)}"`),
    empty: 501,
    fixture: 413,
  },
  {
    label: "a body over the cap without Content-Length",
    path: "/fixture-widgets",
    init: () => json(chunked(17, 64 * KIB)),
    empty: 501,
    fixture: 413,
  },
  {
    label: "a body on an operation that takes none",
    path: "/fixture-widgets/w1",
    init: {
      method: "DELETE",
      headers: { "content-type": "application/json" },
      body: `{"${MARKER}":1}`,
    },
    empty: 501,
    fixture: 415,
  },
];

const TIME_LIMIT_MS = 5000;

async function answerWithin(call: () => Promise<Response>): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${TIME_LIMIT_MS} ms`)),
      TIME_LIMIT_MS,
    );
  });
  try {
    return await Promise.race([call(), hang]);
  } finally {
    clearTimeout(timer);
  }
}

async function expectSafeAnswer(res: Response, status: number): Promise<void> {
  if (status >= 400) {
    const body = await expectProblem(res, status);
    expect(JSON.stringify(body)).not.toContain(MARKER);
    expect(JSON.stringify(body)).not.toContain("script");
  } else {
    expect(res.status).toBe(status);
    expectPlatformHeaders(res);
    expect(await res.text()).not.toContain(MARKER);
  }
}

const request = (c: Hostile) => {
  const init = typeof c.init === "function" ? c.init() : c.init;
  const headers = new Headers(init?.headers);
  headers.set("x-hostile", MARKER);
  return new Request(`${BASE}${c.path}`, { ...init, headers });
};

describe("hostile requests", () => {
  it("are at least thirty, each with an expected answer for both targets", () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });

  const app = fixtureApp();
  const empty = emptyApp();
  for (const c of HOSTILE) {
    it(`${c.label}: empty contract ${c.empty}, fixture ${c.fixture}`, async () => {
      await expectSafeAnswer(
        await answerWithin(() => Promise.resolve(empty.fetch(request(c), env))),
        c.empty,
      );
      await expectSafeAnswer(
        await answerWithin(() => Promise.resolve(app.fetch(request(c), env))),
        c.fixture,
      );
    });
  }

  it("a 64 KiB bearer credential is refused like any wrong one (FIXTURE security app)", async () => {
    const res = await callSecured("/fixture-secure/bearer", {
      headers: { authorization: `Bearer ${"A".repeat(64 * KIB)}` },
    });
    await expectProblem(res, 401);
  });
});

describe("methods the runtime refuses before any Worker code runs", () => {
  // Over real HTTP workerd answers these with its own plain-text 501
  // (src/platform/README.md, "Methods the runtime refuses"); in-process, the Request
  // cannot even be built.
  it.each(["CONNECT", "TRACK", "A".repeat(40), "G E T", "GET\r\n"])("%s", (method) => {
    expect(() => new Request(`${BASE}/`, { method })).toThrow(TypeError);
  });
});
