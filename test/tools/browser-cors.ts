/**
 * CORS seen by a browser (part of `npm run test:browser`): pages served from other origins
 * (local HTTP servers on their own ports) call the built Worker on `workerd serve` with
 * `fetch` in headless Chromium, under each kind of deployment setting. An allowed origin's
 * calls succeed and read `X-Request-Id`, preflighted and with credentials included; a
 * method the path does not declare, an origin the setting leaves out and a refused setting
 * are blocked by the browser itself (fetch rejects, and the console says CORS blocked it).
 * A preflight is sent once for two identical calls: its `Cache-Control: no-store` leaves
 * the browser's preflight cache (`Access-Control-Max-Age`) to work.
 */
import { createServer, request as forward, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { serveWorker } from "./serve";

interface Origin {
  /** The page's origin, e.g. http://127.0.0.1:40001. */
  readonly origin: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closing = (server: Server) => () => new Promise<void>((done) => server.close(() => done()));

/** A page of another origin: an empty document on a server of its own. */
async function pageOrigin(): Promise<Origin> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end("<!doctype html><title>FIXTURE page of another origin</title>");
  });
  return { origin: await listen(server), close: closing(server) };
}

/** A proxy in front of the Worker that counts the preflights (OPTIONS) it passes on. */
async function countingProxy(target: string): Promise<Origin & { preflights(): number }> {
  const upstream = new URL(target);
  let preflights = 0;
  const server = createServer((incoming, outgoing) => {
    if (incoming.method === "OPTIONS") preflights += 1;
    const sent = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    sent.on("error", () => outgoing.destroy());
    incoming.pipe(sent);
  });
  server.keepAliveTimeout = 0;
  return { origin: await listen(server), close: closing(server), preflights: () => preflights };
}

type Outcome =
  | { readonly ok: true; readonly status: number; readonly requestId: string | null }
  | { readonly ok: false; readonly error: string };

/** What the page's script passes to fetch (the browser's RequestInit, which has credentials). */
interface PageInit {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly credentials?: "include" | "omit" | "same-origin";
}

/** `fetch` from inside the page, as a script of its origin would call. */
function callFrom(page: Page, url: string, init: PageInit = {}): Promise<Outcome> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        // The browser's own fetch; the Workers types this file is checked with lack `credentials`.
        const response = await fetch(url, init as unknown as RequestInit);
        await response.arrayBuffer();
        return {
          ok: true as const,
          status: response.status,
          requestId: response.headers.get("x-request-id"),
        };
      } catch (error) {
        return { ok: false as const, error: String(error) };
      }
    },
    { url, init },
  );
}

/** A page at `origin`, with the console messages that name CORS. */
async function openAt(browser: Browser, origin: string) {
  const page = await browser.newPage();
  const corsMessages: string[] = [];
  page.on("console", (message) => {
    if (/CORS|Access-Control/i.test(message.text())) corsMessages.push(message.text());
  });
  await page.goto(`${origin}/`, { waitUntil: "load" });
  return { page, corsMessages };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Failures when the call did not succeed with `status` and a readable request id. */
function succeeded(outcome: Outcome, status: number, requestId: RegExp | string): string[] {
  if (!outcome.ok) return [`the call was blocked: ${outcome.error}`];
  const failures: string[] = [];
  if (outcome.status !== status) failures.push(`status ${outcome.status}, not ${status}`);
  const id = outcome.requestId ?? "";
  if (typeof requestId === "string" ? id !== requestId : !requestId.test(id))
    failures.push(`X-Request-Id read as ${JSON.stringify(outcome.requestId)}`);
  return failures;
}

/** Failures when the browser did not block the call for CORS. */
function blocked(outcome: Outcome, messages: readonly string[]): string[] {
  if (outcome.ok) return [`the call was not blocked (status ${outcome.status})`];
  return messages.some((m) => /blocked by CORS policy/.test(m))
    ? []
    : [`fetch rejected (${outcome.error}) but the console names no CORS block`];
}

/** Every CORS check, each as a label and its failures (none: it passed). */
export async function corsChecks(browser: Browser): Promise<[string, string[]][]> {
  const results: [string, string[]][] = [];
  const allowed = await pageOrigin();
  const other = await pageOrigin();
  try {
    // A list with credentials: the allowed page's origin only.
    const listed = await serveWorker({
      vars: {
        CORS_ALLOWED_ORIGINS: allowed.origin,
        CORS_ALLOW_CREDENTIALS: "true",
        CORS_MAX_AGE: "600",
      },
    });
    const proxy = await countingProxy(listed.url);
    try {
      const health = `${proxy.origin}/_service/health`;
      const { page, corsMessages } = await openAt(browser, allowed.origin);
      results.push([
        "CORS: an allowed origin's fetch succeeds and reads X-Request-Id",
        succeeded(await callFrom(page, health), 200, UUID),
      ]);
      const preflighted: PageInit = {
        headers: { "x-request-id": "browser-cors-1" },
        credentials: "include",
      };
      const first = await callFrom(page, health, preflighted);
      const second = await callFrom(page, health, preflighted);
      results.push([
        "CORS: a preflighted fetch with credentials succeeds; its preflight is sent once (Access-Control-Max-Age, despite no-store)",
        [
          ...succeeded(first, 200, "browser-cors-1"),
          ...succeeded(second, 200, "browser-cors-1"),
          ...(proxy.preflights() === 1 ? [] : [`${proxy.preflights()} preflights, not 1`]),
        ],
      ]);
      results.push([
        "CORS: a problem is readable too (part 4's 501, its X-Request-Id)",
        succeeded(await callFrom(page, `${proxy.origin}/fixture-orders`), 501, UUID),
      ]);
      results.push(["CORS: the allowed origin's calls raise no CORS message", [...corsMessages]]);
      results.push([
        "CORS: a method the path does not declare is blocked by the browser",
        blocked(await callFrom(page, health, { method: "DELETE" }), corsMessages),
      ]);
      await page.close();

      const elsewhere = await openAt(browser, other.origin);
      results.push([
        "CORS: an origin the setting does not list is blocked by the browser",
        blocked(await callFrom(elsewhere.page, health), elsewhere.corsMessages),
      ]);
      await elsewhere.page.close();
    } finally {
      await proxy.close();
      await listed.stop();
    }

    // "*" with credentials: refused by the Worker, so no CORS header and every call blocked.
    console.log('note: the Worker logs the next setting ("*" with credentials) as refused');
    const refused = await serveWorker({
      vars: { CORS_ALLOWED_ORIGINS: "*", CORS_ALLOW_CREDENTIALS: "true" },
    });
    try {
      const { page, corsMessages } = await openAt(browser, allowed.origin);
      results.push([
        'CORS: "*" with credentials is refused by the Worker, so the browser blocks even a simple call',
        blocked(await callFrom(page, `${refused.url}/_service/health`), corsMessages),
      ]);
      await page.close();
    } finally {
      await refused.stop();
    }

    // "*" without credentials: any origin, but the browser refuses it credentials.
    const any = await serveWorker({ vars: { CORS_ALLOWED_ORIGINS: "*" } });
    try {
      const { page, corsMessages } = await openAt(browser, other.origin);
      const health = `${any.url}/_service/health`;
      results.push([
        'CORS: "*" lets any origin call and read X-Request-Id',
        succeeded(await callFrom(page, health), 200, UUID),
      ]);
      results.push([
        'CORS: with "*", the browser refuses a call with credentials (Fetch Standard)',
        blocked(await callFrom(page, health, { credentials: "include" }), corsMessages),
      ]);
      await page.close();
    } finally {
      await any.stop();
    }
  } finally {
    await allowed.close();
    await other.close();
  }
  return results;
}
