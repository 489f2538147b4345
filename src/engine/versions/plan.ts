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
  VersionDeclaration,
  VersionPlacement,
} from "../../domain/contract";

export interface VersionPlan {
  /** Oldest first, as part 9 lists them. */
  readonly order: readonly string[];
  readonly versions: Readonly<Record<string, VersionDeclaration>>;
  readonly placement: VersionPlacement;
  readonly current: string;
  readonly required: boolean;
}

/** Negotiation applies once part 9 declares versions and where a client states one. */
export function planVersions(contract: Contract): VersionPlan | undefined {
  const v = contract.versioning;
  if (!v?.versions || !v.placement) return undefined;
  return {
    order: Object.keys(v.versions),
    versions: v.versions,
    placement: v.placement,
    current: v.current,
    required: v.required === true,
  };
}

/** The versions that have `operation`, oldest first. */
export function versionsOf(plan: VersionPlan, operation: Operation): string[] {
  const { added, removed } = operation.versions ?? {};
  const from = added === undefined ? 0 : plan.order.indexOf(added);
  const to = removed === undefined ? plan.order.length : plan.order.indexOf(removed);
  return plan.order.slice(Math.max(0, from), Math.max(0, to));
}

/** The version a request states, as sent (never echoed back); undefined when it states none. */
export function requestedVersion(
  placement: VersionPlacement,
  request: Request,
): string | undefined {
  if (placement.in === "header") return request.headers.get(placement.name)?.trim() || undefined;
  if (placement.in === "query")
    return new URL(request.url).searchParams.get(placement.name)?.trim() || undefined;
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
export function deprecationValue(date: string): string {
  return `@${Math.floor(Date.parse(date) / 1000)}`;
}

/** RFC 8594 §3: an HTTP-date (RFC 9110 §5.6.7, IMF-fixdate). */
export function sunsetValue(date: string): string {
  return new Date(Date.parse(date)).toUTCString();
}

/** The headers an answer under `version` carries; empty for a version that is not deprecated. */
export function deprecationHeaders(
  declared: VersionDeclaration | undefined,
): Record<string, string> {
  if (!declared?.deprecated) return {};
  const headers: Record<string, string> = { deprecation: deprecationValue(declared.deprecated) };
  if (declared.sunset) headers.sunset = sunsetValue(declared.sunset);
  if (declared.migration) {
    const links = [`<${declared.migration}>; rel="deprecation"; type="text/html"`];
    if (declared.sunset) links.push(`<${declared.migration}>; rel="sunset"; type="text/html"`);
    headers.link = links.join(", ");
  }
  return headers;
}

/** Whether `version` is past its sunset at `now` (ms): it is then 410 Gone. */
export function isSunset(declared: VersionDeclaration | undefined, now: number): boolean {
  return declared?.sunset !== undefined && now >= Date.parse(declared.sunset);
}

/**
 * The contract as one version has it, for that version's OpenAPI document: only the
 * operations of the version, each marked deprecated when the version is. Undefined for a
 * version part 9 does not declare.
 */
export function contractForVersion(contract: Contract, version: string): Contract | undefined {
  const plan = planVersions(contract);
  if (!plan || !Object.hasOwn(plan.versions, version)) return undefined;
  const deprecated = plan.versions[version]?.deprecated !== undefined;
  const operations = Object.fromEntries(
    Object.entries(contract.operations)
      .filter(([, op]) => versionsOf(plan, op).includes(version))
      .map(([id, op]) => [id, deprecated ? { ...op, deprecated: true } : op]),
  );
  const versioning = contract.versioning && { ...contract.versioning, current: version };
  return { ...contract, operations, versioning };
}
