/**
 * Assertions shared by the unit and integration tests: the promises every answer keeps.
 */
import { expect } from "vitest";
import { PERMISSIONS_POLICY_FEATURES } from "../../src/platform/security-headers";

/** What an answer may carry beyond the platform's headers. */
export interface Allowance {
  /** The deployment turned CORS on (src/platform/cors.ts): CORS headers may be sent. */
  readonly cors?: boolean;
}

/** OWASP REST Security Cheat Sheet headers, and the request id, on every answer. */
export function expectPlatformHeaders(
  res: Response,
  kind: "api" | "html" = "api",
  allowance: Allowance = {},
): void {
  const h = res.headers;
  expect(h.get("x-request-id")).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
  expect(h.get("x-content-type-options")).toBe("nosniff");
  expect(h.get("x-frame-options")).toBe("DENY");
  expect(h.get("strict-transport-security")).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
  const csp = h.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  if (kind === "html") expect(csp).toContain("style-src 'self'");
  expect(csp).not.toContain("unsafe");
  expect(h.get("cross-origin-resource-policy")).toBe("same-origin");
  // The headers that act only on a document (src/platform/security-headers.ts): on the
  // HTML pages, and on no data answer.
  const document = {
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "x-permitted-cross-domain-policies": "none",
    "cross-origin-embedder-policy": "require-corp",
    "permissions-policy": PERMISSIONS_POLICY_FEATURES.map((feature) => `${feature}=()`).join(", "),
  };
  for (const [name, value] of Object.entries(document))
    expect(h.get(name), name).toBe(kind === "html" ? value : null);
  expect(h.get("x-powered-by")).toBeNull();
  // CORS is off unless the deployment turns it on (the test runtime's wrangler.toml: off).
  if (!allowance.cors) for (const name of h.keys()) expect(name).not.toMatch(/^access-control-/);
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  requestId: string;
  [member: string]: unknown;
}

/**
 * An RFC 9457 problem answer: media type, member types (§3.1), `status` equal to the HTTP
 * status, the request id of the header, and `no-store`.
 */
export async function expectProblem(
  res: Response,
  status: number,
  allowance: Allowance = {},
): Promise<ProblemBody> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expectPlatformHeaders(res, "api", allowance);
  const body = (await res.json()) as ProblemBody;
  expect(typeof body.type).toBe("string");
  expect(typeof body.title).toBe("string");
  expect(body.title.length).toBeGreaterThan(0);
  expect(body.status).toBe(status);
  if (body.detail !== undefined) expect(typeof body.detail).toBe("string");
  expect(body.requestId).toBe(res.headers.get("x-request-id"));
  expect(JSON.stringify(body)).not.toMatch(/\bat \S+ \(|\.ts:\d+|\/src\/|node_modules/);
  return body;
}
