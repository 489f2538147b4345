/**
 * The operational endpoints under `/_service`. They belong to the platform, never to the
 * service's interface, and exist whatever the contract declares.
 */
import type { Handler, Hono } from "hono";
import type { Contract } from "../contract-language/contract";
import { negotiate } from "./accept";
import {
  type CorsResource,
  type CorsSetting,
  corsSetting,
  corsStatus,
  PLATFORM_CORS,
} from "./cors";
import type { PlatformDefault } from "./defaults";
import type { AppEnv } from "./env";
import { cachedDocument } from "./etag";
import { type SafeHtml, STYLESHEET } from "./html";
import { problemTypePage, statusReportPage } from "./pages";
import { SERVICE_PATHS, SERVICE_PREFIX } from "./paths";
import { isHosted, type ProblemType, problemResponse, statusProblem } from "./problem";
import { AS_IS } from "./problem-presenter";
import { mountResource } from "./resource";
import { HTML_CSP } from "./security-headers";
import { statusReport } from "./status";

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
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-cache",
  vary: "accept",
  "content-security-policy": HTML_CSP,
};
const OPENAPI_HEADERS = { "content-type": "application/json", "cache-control": "no-cache" };
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-cache",
  "content-security-policy": HTML_CSP,
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

// RFC 9110 §15.5.5: there is no document for that version.
const NO_SUCH_VERSION = statusProblem(
  404,
  `No OpenAPI document exists for that version; ${SERVICE_PATHS.interface} lists the versions.`,
);

export interface ServiceRoutes {
  readonly report: { readonly contract: Contract; readonly defaults: readonly PlatformDefault[] };
  readonly problemTypes: readonly ProblemType[];
  /**
   * Builds the OpenAPI document of a version of part 9 (the current one when none is
   * asked), once per version; undefined for a version the contract does not declare.
   */
  readonly openapi: (version?: string) => unknown;
  /** How many destinations the deployment's bindings give each event (part 6). */
  readonly destinations?: (env: unknown) => (event: string) => number;
  /** The engine's sections of the interface page (part 3's diagrams). */
  readonly pageSections?: () => SafeHtml;
}

export function mountServiceRoutes(app: Hono<AppEnv>, routes: ServiceRoutes): void {
  // Built on the first request: the destinations of part 6 and the CORS setting are the
  // deployment's vars, which a Worker reads from a request's bindings; they do not change
  // within an isolate (the CORS setting is parsed once, so the same object while it holds).
  let documents:
    | { readonly json: string; readonly html: string; readonly cors: CorsSetting }
    | undefined;
  const reportDocuments = (env: Env | undefined) => {
    const cors = corsSetting(env);
    if (documents && documents.cors === cors) return documents;
    const report = statusReport(
      routes.report.contract,
      routes.report.defaults,
      routes.destinations?.(env),
      corsStatus(cors),
    );
    documents = {
      json: JSON.stringify(report),
      html: statusReportPage(report, routes.problemTypes, routes.pageSections?.()),
      cors,
    };
    return documents;
  };
  const openapiJson = new Map<string, string>();

  mountResource(app, SERVICE_PATHS.health, {
    GET: () => new Response(HEALTH.body, { headers: HEALTH.headers }),
  });

  // Both documents are `no-cache`: a cache must revalidate, and gets a 304 when it may reuse.
  const cached = cachedDocument();
  mountResource(
    app,
    SERVICE_PATHS.interface,
    {
      GET: (c) => {
        const wantsHtml =
          negotiate(c.req.header("accept") ?? null, ["application/json", "text/html"]) ===
          "text/html";
        const { json, html } = reportDocuments(c.env);
        return wantsHtml
          ? cached(c.req.raw, html, REPORT_HTML_HEADERS)
          : cached(c.req.raw, json, REPORT_JSON_HEADERS);
      },
    },
    AS_IS,
    DOCUMENT_CORS,
  );

  mountResource(
    app,
    SERVICE_PATHS.openapi,
    {
      GET: (c) => {
        const version = c.req.query("version");
        let json = openapiJson.get(version ?? "");
        if (json === undefined) {
          const document = routes.openapi(version);
          // The value asked for is not echoed (OWASP): the report lists the versions there are.
          if (document === undefined) return problemResponse(c.get("requestId"), NO_SUCH_VERSION);
          json = JSON.stringify(document);
          openapiJson.set(version ?? "", json);
        }
        return cached(c.req.raw, json, OPENAPI_HEADERS);
      },
    },
    AS_IS,
    DOCUMENT_CORS,
  );

  // Pages only for the types hosted here; a spec's own absolute type URI is documented elsewhere.
  for (const type of routes.problemTypes.filter(isHosted)) {
    const page = problemTypePage(type);
    mountResource(app, `${SERVICE_PATHS.problems}/${type.slug}`, {
      GET: () => new Response(page, { headers: PAGE_HEADERS }),
    });
  }

  mountResource(app, SERVICE_PATHS.stylesheet, {
    GET: () => new Response(STYLESHEET, { headers: STYLESHEET_HEADERS }),
  });

  const unknown: Handler<AppEnv> = (c) => problemResponse(c.get("requestId"), UNKNOWN_SERVICE_PATH);
  app.all(SERVICE_PREFIX, unknown);
  app.all(`${SERVICE_PREFIX}/*`, unknown);
}
