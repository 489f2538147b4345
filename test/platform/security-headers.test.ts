/**
 * The OWASP header set's Permissions-Policy list: every feature of its two sources is
 * denied, apart from those left out with a reason (src/platform/security-headers.ts); and
 * an answer made with the headers built once per kind carries exactly that set.
 */
import { describe, expect, it } from "vitest";
import {
  apiHeaders,
  DOCUMENT_HEADERS,
  isComplete,
  PERMISSIONS_POLICY_FEATURES,
  platformAnswer,
} from "../../src/platform/security-headers";

/** W3C webappsec-permissions-policy, features.md: standardized and proposed features. */
const W3C_REGISTRY = [
  "accelerometer",
  "ambient-light-sensor",
  "autoplay",
  "battery",
  "camera",
  "cross-origin-isolated",
  "display-capture",
  "document-domain",
  "encrypted-media",
  "execution-while-not-rendered",
  "execution-while-out-of-viewport",
  "fullscreen",
  "geolocation",
  "gyroscope",
  "hid",
  "idle-detection",
  "magnetometer",
  "microphone",
  "midi",
  "navigation-override",
  "payment",
  "picture-in-picture",
  "publickey-credentials-get",
  "screen-wake-lock",
  "serial",
  "sync-xhr",
  "usb",
  "web-share",
  "xr-spatial-tracking",
  "clipboard-read",
  "clipboard-write",
  "identity-credential-get",
  "gamepad",
  "speaker-selection",
];

/** The OWASP Secure Headers Project's recommended Permissions-Policy value, by feature. */
const OWASP_RECOMMENDED = [
  "accelerometer",
  "autoplay",
  "camera",
  "cross-origin-isolated",
  "display-capture",
  "encrypted-media",
  "fullscreen",
  "geolocation",
  "gyroscope",
  "keyboard-map",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "picture-in-picture",
  "publickey-credentials-get",
  "screen-wake-lock",
  "sync-xhr",
  "usb",
  "web-share",
  "xr-spatial-tracking",
  "clipboard-read",
  "clipboard-write",
  "gamepad",
  "hid",
  "idle-detection",
  "interest-cohort",
  "serial",
  "unload",
];

/** Left out, each with the reason given beside the list. */
const LEFT_OUT: Readonly<Record<string, string>> = {
  "ambient-light-sensor": "no shipping browser knows it",
  battery: "no shipping browser knows it",
  "document-domain": "no shipping browser knows it",
  "execution-while-not-rendered": "no shipping browser knows it",
  "execution-while-out-of-viewport": "no shipping browser knows it",
  "navigation-override": "no shipping browser knows it",
  "interest-cohort": "FLoC was withdrawn",
  "identity-credential-get": "shipped as identity-credentials-get",
};

describe("Permissions-Policy (W3C Permissions Policy, OWASP Secure Headers)", () => {
  it("denies every feature of the W3C registry and of OWASP's recommendation, apart from those left out with a reason", () => {
    const wanted = [...new Set([...W3C_REGISTRY, ...OWASP_RECOMMENDED])].filter(
      (feature) => !(feature in LEFT_OUT),
    );
    const missing = wanted.filter(
      (feature) => !(PERMISSIONS_POLICY_FEATURES as readonly string[]).includes(feature),
    );
    expect(missing).toEqual([]);
    expect(PERMISSIONS_POLICY_FEATURES).toContain("identity-credentials-get");
  });

  it("grants none of them: each has the empty allowlist", () => {
    const entries = DOCUMENT_HEADERS["permissions-policy"]?.split(", ") ?? [];
    expect(entries).toHaveLength(PERMISSIONS_POLICY_FEATURES.length);
    for (const entry of entries) expect(entry).toMatch(/^[a-z-]+=\(\)$/);
  });

  it("sends Cross-Origin-Embedder-Policy: require-corp on documents (OWASP Secure Headers)", () => {
    expect(DOCUMENT_HEADERS["cross-origin-embedder-policy"]).toBe("require-corp");
  });
});

describe("answers made with the platform's headers built once per kind", () => {
  const headersOf = (response: Response) => Object.fromEntries(response.headers);

  it("carry exactly apiHeaders' set (OWASP REST Security, RFC 6797) with the kind's own and this request's id", () => {
    const answer = platformAnswer("{}", 201, "fixture-id-1", {
      contentType: "application/json",
      cacheControl: "no-store",
      vary: "accept",
    });
    expect(headersOf(answer)).toEqual({
      ...apiHeaders("fixture-id-1"),
      "content-type": "application/json",
      "cache-control": "no-store",
      vary: "accept",
    });
    expect(answer.status).toBe(201);
    expect(isComplete(answer)).toBe(true);
  });

  it("share nothing between answers: one answer's change, id or kind never reaches the next", () => {
    const kind = { contentType: "application/json", cacheControl: "no-store" };
    const first = platformAnswer(null, 200, "fixture-id-1", kind);
    first.headers.set("x-frame-options", "SAMEORIGIN");
    first.headers.append("vary", "origin");
    const second = platformAnswer(null, 200, "fixture-id-2", kind);
    expect(headersOf(second)).toEqual({
      ...apiHeaders("fixture-id-2"),
      "content-type": "application/json",
      "cache-control": "no-store",
    });
    const other = platformAnswer(null, 204, "fixture-id-3", { cacheControl: "no-cache" });
    expect(headersOf(other)).toEqual({
      ...apiHeaders("fixture-id-3"),
      "cache-control": "no-cache",
    });
  });
});
