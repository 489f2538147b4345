/**
 * The status report and the OpenAPI document describe the same contract, so what one says
 * the other must agree with: part by part, the counts of what is declared.
 */

export interface Report {
  /** Part 9's versions with their dates, and where a request states one. */
  readonly versions?: readonly {
    readonly version: string;
    readonly current: boolean;
    readonly deprecated?: string;
    readonly sunset?: string;
  }[];
  readonly versionPlacement?:
    | { readonly in: "header" | "query"; readonly name: string }
    | { readonly in: "media-type"; readonly parameter: string }
    | { readonly in: "path" };
  readonly specifiedParts: number;
  readonly totalParts: number;
  readonly parts: readonly {
    readonly number: number;
    readonly name: string;
    readonly title: string;
    readonly specified: boolean;
    readonly declared: Readonly<Record<string, number>>;
  }[];
  readonly limits?: readonly {
    readonly name: string;
    readonly kind: string;
    readonly operations?: readonly string[];
    readonly maxBytes?: number;
    /** A rate limit's requests per period, and the period in seconds. */
    readonly limit?: number;
    readonly period?: number;
  }[];
  readonly platformDefaults?: readonly { readonly name: string; readonly value: number }[];
  /** The deployment's CORS setting: which origins browsers may call from. */
  readonly cors?: {
    readonly enabled: boolean;
    readonly origins: readonly string[];
    readonly credentials?: boolean;
    readonly maxAgeSeconds?: number;
  };
  /** The platform's failures part 7 answers as its own error types. */
  readonly errorModel?: readonly {
    readonly failure: string;
    readonly status: number;
    readonly type: string;
    /** The media type of an error type's own body (not RFC 9457's). */
    readonly mediaType?: string;
    /** Only these operations answer so; absent: every operation. */
    readonly operations?: readonly string[];
  }[];
}

type PathItem = Record<
  string,
  {
    tags?: string[];
    parameters?: { name?: string; schema?: { enum?: string[] } }[];
  }
>;

export interface OpenApi {
  readonly openapi?: string;
  readonly info?: {
    readonly title?: string;
    readonly version?: string;
    readonly description?: string;
  };
  readonly paths?: Readonly<Record<string, PathItem>>;
  readonly webhooks?: Readonly<Record<string, unknown>>;
  readonly components?: {
    readonly schemas?: Readonly<Record<string, unknown>>;
    readonly responses?: Readonly<Record<string, unknown>>;
    readonly securitySchemes?: Readonly<Record<string, unknown>>;
  };
}

const PLATFORM_TAG = "platform";
/**
 * A component schema that is not a part 2 resource says so: `x-platform` marks the
 * platform's own (the problem document, the health document, …), `x-derived` one the
 * document derived from a declaration (a recursive schema given a name of its own).
 */
const isResource = (schema: unknown) =>
  typeof schema === "object" &&
  schema !== null &&
  !("x-platform" in schema) &&
  !("x-derived" in schema);

const size = (record: Readonly<Record<string, unknown>> | undefined) =>
  Object.keys(record ?? {}).length;

/** What the OpenAPI document shows of each part, counted as the report counts it. */
function openapiCounts(doc: OpenApi): Readonly<Record<string, number>> {
  let operations = 0;
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (!operation.tags?.includes(PLATFORM_TAG)) operations += 1;
    }
  }
  // A resource is its own component, or, where every use is one of its direction views
  // (`X-Input`, `X-Output`, `x-view-of`), those views stand for it.
  const resources = new Set(
    Object.entries(doc.components?.schemas ?? {}).flatMap(([name, schema]) => {
      const view = (schema as { "x-view-of"?: { resource?: string } } | null)?.["x-view-of"];
      if (view?.resource) return [view.resource];
      return isResource(schema) ? [name] : [];
    }),
  );
  // components.responses holds part 7's error types only.
  const errors = Object.keys(doc.components?.responses ?? {});
  return {
    resources: resources.size,
    endpoints: operations,
    authentication: size(doc.components?.securitySchemes),
    events: size(doc.webhooks),
    errors: errors.length,
    versioning: doc.info?.version === "not specified" ? 0 : 1,
  };
}

/** Named checks, each with its failures (none when it passes). */
export function consistencyChecks(report: Report, doc: OpenApi): [string, string[]][] {
  const checks: [string, string[]][] = [];
  const parts = report.parts ?? [];
  const numbers = parts.map((p) => p.number).join(",");
  checks.push([
    "the status report lists the nine parts in order",
    numbers === "1,2,3,4,5,6,7,8,9" && report.totalParts === 9 ? [] : [`parts are ${numbers}`],
  ]);
  const specified = parts.filter((p) => p.specified).length;
  checks.push([
    "the status report's specifiedParts counts the specified parts",
    report.specifiedParts === specified ? [] : [`${report.specifiedParts} ≠ ${specified}`],
  ]);
  checks.push([
    "each part is specified exactly when it declares something",
    parts
      .filter((p) => p.specified !== Object.values(p.declared).some((n) => n > 0))
      .map(
        (p) => `part ${p.number} says specified=${p.specified} with ${JSON.stringify(p.declared)}`,
      ),
  ]);
  checks.push([
    "the OpenAPI document is OpenAPI 3.1",
    doc.openapi?.startsWith("3.1.") ? [] : [`openapi is ${String(doc.openapi)}`],
  ]);

  const counts = openapiCounts(doc);
  const failures: string[] = [];
  for (const part of parts) {
    const shown = counts[part.name];
    if (shown === undefined) continue;
    const declared = Object.values(part.declared)[0] ?? 0;
    // Once versions are negotiated, the document is the current version's: it shows the
    // operations and resources of that version, which may be fewer than the contract declares.
    const perVersion =
      (part.name === "endpoints" || part.name === "resources") &&
      report.versionPlacement !== undefined;
    const agrees =
      part.name === "versioning"
        ? declared > 0 === shown > 0
        : perVersion
          ? shown <= declared
          : declared === shown;
    if (!agrees)
      failures.push(`part ${part.number} (${part.name}): report ${declared}, OpenAPI ${shown}`);
  }
  const limits = parts.find((p) => p.name === "limits");
  if (limits && (Object.values(limits.declared)[0] ?? 0) !== (report.limits?.length ?? 0))
    failures.push("part 8's count differs from the limits the report lists");
  checks.push(["the status report and the OpenAPI document count the same declarations", failures]);

  const description = doc.info?.description ?? "";
  checks.push([
    "the OpenAPI document names every part the report calls not specified",
    parts
      .filter((p) => !p.specified && !description.includes(`part ${p.number} (${p.title})`))
      .map((p) => `part ${p.number} is not named`),
  ]);
  return checks;
}
