/**
 * The operational endpoints under `/_service`. They belong to the platform, never to the
 * service's interface, and exist whatever the contract declares.
 */
import type { Context, Handler, Hono } from "hono";
import { negotiate } from "./accept";
import {
  type CorsResource,
  type CorsSetting,
  corsSetting,
  corsStatus,
  PLATFORM_CORS,
} from "./cors";
import { documentBody, type ServedDocument, type ServiceDocuments } from "./documents";
import type { AppEnv } from "./env";
import { cachedDocument } from "./etag";
import { reportPage } from "./pages";
import { SERVICE_PATHS, SERVICE_PREFIX } from "./paths";
import { problemResponse, statusProblem } from "./problem";
import { AS_IS } from "./problem-presenter";
import { REFERENCE_CSP } from "./reference/search";
import { mountResource } from "./resource";
import { DOCUMENT_HEADERS, HTML_CSP } from "./security-headers";
import { type Answering, withDeployment } from "./status";

/** draft-inadarei-api-health-check: a health document with `status: "pass"`. */
export const HEALTH = {
  body: JSON.stringify({ status: "pass" }),
  headers: { "content-type": "application/health+json", "cache-control": "no-store" },
} as const;

// The report changes only with a deployment: caches must revalidate (RFC 9111 §5.2.2.4),
// and the answer depends on Accept (RFC 9110 §12.5.5).
const REPORT_JSON_HEADERS = {
  "content-type": "application/json",
  "cache-control": "no-cache",
  vary: "accept",
};
const REPORT_HTML_HEADERS = {
  ...DOCUMENT_HEADERS,
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-cache",
  vary: "accept",
  "content-security-policy": HTML_CSP,
};
const OPENAPI_HEADERS = { "content-type": "application/json", "cache-control": "no-cache" };
const PAGE_HEADERS = {
  ...DOCUMENT_HEADERS,
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-cache",
  "content-security-policy": HTML_CSP,
};
// The reference runs two inline scripts, allowed by their hashes (src/platform/reference/search.ts).
const REFERENCE_HEADERS = {
  ...DOCUMENT_HEADERS,
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-cache",
  "content-security-policy": REFERENCE_CSP,
};
const STYLESHEET_HEADERS = {
  "content-type": "text/css; charset=utf-8",
  "cache-control": "public, max-age=3600",
};

// The two documents with an entity tag: a script may revalidate them (If-None-Match) and
// read the tag (RFC 9110 §8.8.3, §13.1.2).
const DOCUMENT_CORS: CorsResource = {
  requestHeaders: [...PLATFORM_CORS.requestHeaders, "if-none-match"],
  exposedHeaders: [...PLATFORM_CORS.exposedHeaders, "etag"],
};

const UNKNOWN_SERVICE_PATH = statusProblem(
  404,
  `No operational endpoint exists at this path; see ${SERVICE_PATHS.interface}.`,
);

// RFC 9110 §15.6.4: the deployment cannot serve a document the build made (its static
// assets or their binding are missing); said without naming what, which is logged.
const DOCUMENT_UNAVAILABLE = statusProblem(
  503,
  "The document cannot be served by this deployment; try again after it is fixed.",
);

// RFC 9110 §15.5.5: there is no document for that version.
const NO_SUCH_VERSION = statusProblem(
  404,
  `No OpenAPI document exists for that version; ${SERVICE_PATHS.interface} lists the versions.`,
);
const NO_SUCH_REFERENCE = statusProblem(
  404,
  `No reference exists for that version; ${SERVICE_PATHS.interface} lists the versions.`,
);

const NO_SUCH_REFERENCE_PAGE = statusProblem(
  404,
  `No such page of the reference; ${SERVICE_PATHS.reference} links every page there is.`,
);

interface ServiceRoutes {
  /** What the contract alone decides, made when the Worker was built (`documents.ts`). */
  readonly documents: ServiceDocuments;
  /** How many destinations the deployment's bindings give each event (part 6). */
  readonly destinations?: (env: unknown) => (event: string) => number;
  /** How the deployment's setting answers operations without a handler (part 4). */
  readonly answering?: (env: unknown) => Answering;
  /** `DELETE /_service/sandbox`, where the contract places an operation in the sandbox. */
  readonly sandboxReset?: { readonly enabled: () => boolean; readonly reset: Handler<AppEnv> };
}

/** The API reference, of the current version or of one part 9 declares (`?version=`). */
function mountReference(
  app: Hono<AppEnv>,
  documents: ServiceDocuments,
  answer: (
    c: Context<AppEnv>,
    page: ServedDocument,
    headers: typeof REFERENCE_HEADERS,
  ) => Promise<Response>,
): void {
  mountResource(app, SERVICE_PATHS.reference, {
    GET: async (c) => {
      const page = documents.reference(c.req.query("version"));
      // The value asked for is not echoed (OWASP): the versions table links those there are.
      if (page === undefined) return problemResponse(c.get("requestId"), NO_SUCH_REFERENCE);
      return answer(c, page, REFERENCE_HEADERS);
    },
  });
  // The pages a large reference continues on, numbered from 1 (src/platform/reference/page.ts).
  mountResource(app, `${SERVICE_PATHS.reference}/:page`, {
    GET: async (c) => {
      const asked = c.req.param("page") ?? "";
      const page = /^[1-9][0-9]{0,5}$/.test(asked)
        ? documents.reference(c.req.query("version"), Number(asked))
        : undefined;
      // Neither value is echoed (OWASP): the first page links every page there is.
      if (page === undefined) return problemResponse(c.get("requestId"), NO_SUCH_REFERENCE_PAGE);
      return answer(c, page, REFERENCE_HEADERS);
    },
  });
}

export function mountServiceRoutes(app: Hono<AppEnv>, routes: ServiceRoutes): void {
  const { documents } = routes;
  // Filled in on the first request: the destinations of part 6, the CORS setting and how
  // operations without a handler answer are the deployment's vars, which a Worker reads from
  // a request's bindings; they do not change within an isolate (the CORS setting is parsed
  // once, so the same object while it holds).
  // Each form is made when it is first asked for: the page of a large API's report costs
  // milliseconds to render, which a caller of the JSON never pays.
  let served:
    | {
        readonly json: () => string;
        readonly html: () => string;
        readonly cors: CorsSetting;
        readonly unhandled: string | undefined;
      }
    | undefined;
  const reportDocuments = async (env: Env | undefined) => {
    const cors = corsSetting(env);
    const answering = routes.answering?.(env);
    const unhandled = answering?.setting;
    if (served && served.cors === cors && served.unhandled === unhandled) return served;
    const built = await documents.report(env);
    if (built === undefined) return undefined;
    const report = withDeployment(
      built.report,
      routes.destinations?.(env),
      corsStatus(cors),
      answering,
    );
    let json: string | undefined;
    let html: string | undefined;
    served = {
      json: () => {
        json ??= JSON.stringify(report);
        return json;
      },
      html: () => {
        html ??= reportPage(built.page, report);
        return html;
      },
      cors,
      unhandled,
    };
    return served;
  };

  mountResource(app, SERVICE_PATHS.health, {
    GET: () => new Response(HEALTH.body, { headers: HEALTH.headers }),
  });

  // Both documents are `no-cache`: a cache must revalidate, and gets a 304 when it may reuse.
  const cached = cachedDocument();
  const answer = async (
    c: Context<AppEnv>,
    document: ServedDocument,
    headers: Readonly<Record<string, string>>,
  ) =>
    (await cached(c.req.raw, c.env, document, headers)) ??
    problemResponse(c.get("requestId"), DOCUMENT_UNAVAILABLE);
  // A deployment of the platform's defaults serves the report's JSON the build wrote for it
  // (documents.ts, `DefaultReport`), as it serves the OpenAPI document: read from its asset,
  // never parsed and written again in an isolate, which cost a large API's fresh isolate
  // milliseconds of its first report request. Any other deployment's is made below.
  const { defaultReport } = documents;
  const isDefault = (env: Env | undefined, events: readonly string[]) => {
    if (corsSetting(env).state !== "off") return false;
    if ((routes.answering?.(env).setting ?? "501") !== "501") return false;
    const destinations = routes.destinations?.(env);
    return destinations === undefined || events.every((event) => destinations(event) === 0);
  };
  mountResource(
    app,
    SERVICE_PATHS.interface,
    {
      GET: async (c) => {
        const wantsHtml =
          negotiate(c.req.header("accept") ?? null, ["application/json", "text/html"]) ===
          "text/html";
        if (!wantsHtml && defaultReport && isDefault(c.env, defaultReport.events))
          return answer(c, defaultReport.document, REPORT_JSON_HEADERS);
        const made = await reportDocuments(c.env);
        if (made === undefined) return problemResponse(c.get("requestId"), DOCUMENT_UNAVAILABLE);
        return wantsHtml
          ? answer(c, { body: made.html() }, REPORT_HTML_HEADERS)
          : answer(c, { body: made.json() }, REPORT_JSON_HEADERS);
      },
    },
    AS_IS,
    DOCUMENT_CORS,
  );

  mountResource(
    app,
    SERVICE_PATHS.openapi,
    {
      GET: async (c) => {
        const document = documents.openapi(c.req.query("version"));
        // The value asked for is not echoed (OWASP): the report lists the versions there are.
        if (document === undefined) return problemResponse(c.get("requestId"), NO_SUCH_VERSION);
        return answer(c, document, OPENAPI_HEADERS);
      },
    },
    AS_IS,
    DOCUMENT_CORS,
  );

  mountReference(app, documents, answer);

  // Pages only for the types hosted here; a spec's own absolute type URI is documented elsewhere.
  for (const [slug, page] of documents.problemPages) {
    mountResource(app, `${SERVICE_PATHS.problems}/${slug}`, {
      GET: async (c) => {
        const body = await documentBody(c.env, page);
        if (body === undefined) return problemResponse(c.get("requestId"), DOCUMENT_UNAVAILABLE);
        return new Response(body, { headers: PAGE_HEADERS });
      },
    });
  }

  mountResource(app, SERVICE_PATHS.stylesheet, {
    GET: (c) => answer(c, documents.stylesheet, STYLESHEET_HEADERS),
  });

  const unknown: Handler<AppEnv> = (c) => problemResponse(c.get("requestId"), UNKNOWN_SERVICE_PATH);
  const sandbox = routes.sandboxReset;
  if (sandbox) {
    // Whether the contract has a sandbox is known on the first request, not when the app starts.
    app.all(SERVICE_PATHS.sandbox, (c, next) => (sandbox.enabled() ? next() : unknown(c, next)));
    mountResource(app, SERVICE_PATHS.sandbox, { DELETE: sandbox.reset });
  }

  app.all(SERVICE_PREFIX, unknown);
  app.all(`${SERVICE_PREFIX}/*`, unknown);
}
