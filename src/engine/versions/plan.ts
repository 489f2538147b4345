/**
 * Part 9, negotiated: which version a request asks for (where `placement` says), whether
 * it may have it, and the headers a deprecated version's answers carry: `Deprecation`
 * (RFC 9745 §2, a structured-field date, `@` and seconds since the epoch), `Sunset`
 * (RFC 8594 §3, an HTTP-date) and `Link` to the migration notes with rel="deprecation"
 * (RFC 9745 §3) and rel="sunset" (RFC 8594 §4).
 */
import type {
  Contract,
  Operation,
  Retirement,
  VersionDeclaration,
  VersionPlacement,
  VersionRange,
} from "../../contract-language/contract";
import type { HiddenFields } from "../request/plan";

export interface VersionPlan {
  /** Oldest first, as part 9 lists them. */
  readonly order: readonly string[];
  readonly versions: Readonly<Record<string, VersionDeclaration>>;
  readonly placement: VersionPlacement;
  readonly current: string;
  readonly required: boolean;
}

/**
 * With the version in the path, every operation is routed under this parameter first
 * (`/:__version/items`); it is the path's first segment, kept from the params schemas.
 */
export const VERSION_SEGMENT = "__version";

/** Negotiation applies once part 9 declares versions and where a client states one. */
export function planVersions(contract: Contract): VersionPlan | undefined {
  const v = contract.versioning;
  if (!v?.versions || !v.placement) return undefined;
  return {
    order: Object.keys(v.versions),
    versions: v.versions,
    placement: v.placement,
    current: v.current,
    // A path either has the version segment or is not an operation's path.
    required: v.required === true || v.placement.in === "path",
  };
}

/** The versions in `range`, oldest first (all of them without a range). */
export function versionsOf(plan: VersionPlan, range: VersionRange | undefined): string[] {
  const { added, removed } = range ?? {};
  const from = added === undefined ? 0 : plan.order.indexOf(added);
  const to = removed === undefined ? plan.order.length : plan.order.indexOf(removed);
  return plan.order.slice(Math.max(0, from), Math.max(0, to));
}

/**
 * Which of `operationShapes(operation)` serves `version`: the variant whose range has it,
 * or 0, the operation's own declaration.
 */
export function shapeIndex(plan: VersionPlan, operation: Operation, version: string): number {
  const index = (operation.variants ?? []).findIndex((variant) =>
    versionsOf(plan, variant.versions).includes(version),
  );
  return index + 1;
}

/** The request fields that state the version, kept from the schemas (a handler gets `version`). */
export function versionFields(placement: VersionPlacement): Partial<HiddenFields> {
  if (placement.in === "header") return { header: new Set([placement.name.toLowerCase()]) };
  if (placement.in === "query") return { query: new Set([placement.name]) };
  if (placement.in === "path") return { path: new Set([VERSION_SEGMENT]) };
  return {};
}

/** The version a request states, as sent (never echoed back); undefined when it states none. */
export function requestedVersion(
  placement: VersionPlacement,
  request: Request,
): string | undefined {
  if (placement.in === "header") return request.headers.get(placement.name)?.trim() || undefined;
  if (placement.in === "query")
    return new URL(request.url).searchParams.get(placement.name)?.trim() || undefined;
  if (placement.in === "path") return new URL(request.url).pathname.split("/")[1] || undefined;
  const accept = request.headers.get("accept") ?? "";
  for (const range of accept.split(",")) {
    for (const parameter of range.split(";").slice(1)) {
      const [name, value] = parameter.split("=").map((p) => p.trim());
      if (name?.toLowerCase() === placement.parameter.toLowerCase() && value)
        return value.replace(/^"|"$/g, "");
    }
  }
  return undefined;
}

/** RFC 9745 §2: `@` and the seconds since the epoch (a structured-field date). */
function deprecationValue(date: string): string {
  return `@${Math.floor(Date.parse(date) / 1000)}`;
}

/** RFC 8594 §3: an HTTP-date (RFC 9110 §5.6.7, IMF-fixdate). */
function sunsetValue(date: string): string {
  return new Date(Date.parse(date)).toUTCString();
}

/** An operation's own retirement, when it declares one with dates. */
export function retirementOf(operation: Operation): Retirement | undefined {
  return typeof operation.deprecated === "object" ? operation.deprecated : undefined;
}

/**
 * The headers an answer carries when its version, its operation or both are deprecated;
 * empty when neither is. Deprecated since the earlier date, sunset at the earlier one, and
 * a `Link` to each migration note.
 */
export function deprecationHeaders(
  ...retirements: readonly (Retirement | undefined)[]
): Record<string, string> {
  const deprecated = retirements.filter((r): r is Retirement => r?.deprecated !== undefined);
  if (deprecated.length === 0) return {};
  const earliest = (dates: (string | undefined)[]) =>
    dates
      .filter((d): d is string => d !== undefined)
      .sort((a, b) => Date.parse(a) - Date.parse(b))[0];
  const since = earliest(deprecated.map((r) => r.deprecated)) as string;
  const headers: Record<string, string> = { deprecation: deprecationValue(since) };
  const sunset = earliest(deprecated.map((r) => r.sunset));
  if (sunset) headers.sunset = sunsetValue(sunset);
  const links = new Set<string>();
  for (const { migration, sunset: ends } of deprecated) {
    if (!migration) continue;
    links.add(`<${migration}>; rel="deprecation"; type="text/html"`);
    if (ends) links.add(`<${migration}>; rel="sunset"; type="text/html"`);
  }
  if (links.size > 0) headers.link = [...links].join(", ");
  return headers;
}

/** Whether a version or an operation is past its sunset at `now` (ms): it is then 410 Gone. */
export function isSunset(declared: Retirement | undefined, now: number): boolean {
  return declared?.sunset !== undefined && now >= Date.parse(declared.sunset);
}
