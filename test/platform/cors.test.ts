/**
 * The CORS setting as parsed from a deployment's vars (src/platform/cors.ts): what is
 * accepted, what is refused as a whole (fail-closed), and that it is parsed once while it
 * stays the same.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  corsSetting,
  DEFAULT_MAX_AGE,
  MAX_MAX_AGE,
  parseCors,
  resourceCors,
} from "../../src/platform/cors";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("parseCors", () => {
  it.each([
    [undefined, "off"],
    ["", "off"],
    ["  ,  ", "off"],
  ])("origins %o: off", (origins, state) => {
    expect(parseCors(origins, "true", "").state).toBe(state);
  });

  it("a list of exact origins, without credentials and with the default max age", () => {
    expect(parseCors("https://a.fixture.test, http://localhost:8080", "", "")).toEqual({
      state: "on",
      policy: {
        origins: new Set(["https://a.fixture.test", "http://localhost:8080"]),
        credentials: false,
        maxAge: DEFAULT_MAX_AGE,
      },
    });
  });

  it('"*" without credentials: any origin', () => {
    expect(parseCors("*", "false", "0")).toEqual({
      state: "on",
      policy: { origins: "*", credentials: false, maxAge: 0 },
    });
  });

  it("a list with credentials", () => {
    const setting = parseCors("https://a.fixture.test", "TRUE", String(MAX_MAX_AGE));
    expect(setting).toEqual({
      state: "on",
      policy: {
        origins: new Set(["https://a.fixture.test"]),
        credentials: true,
        maxAge: MAX_MAX_AGE,
      },
    });
  });

  it.each([
    ["*", "true", "", "does not allow credentials with any origin"],
    ["*, https://a.fixture.test", "", "", '"*" stands alone'],
    ["https://a.fixture.test/", "", "", "is not written as an origin: https://a.fixture.test"],
    ["https://A.fixture.test", "", "", "is not written as an origin: https://a.fixture.test"],
    ["https://a.fixture.test:443", "", "", "is not written as an origin"],
    ["https://a.fixture.test/app", "", "", "is not written as an origin"],
    ["null", "", "", "is not an origin"],
    ["a.fixture.test", "", "", "is not an origin"],
    ["file:///etc", "", "", "is not an http or https origin"],
    ["https://a.fixture.test", "yes", "", 'CORS_ALLOW_CREDENTIALS must be "true" or "false"'],
    ["https://a.fixture.test", "", String(MAX_MAX_AGE + 1), "CORS_MAX_AGE must be"],
    ["https://a.fixture.test", "", "-1", "CORS_MAX_AGE must be"],
    ["https://a.fixture.test", "", "1.5", "CORS_MAX_AGE must be"],
  ])(
    "refuses %o (credentials %o, max age %o) as a whole",
    (origins, credentials, maxAge, reason) => {
      const setting = parseCors(origins, credentials, maxAge);
      expect(setting.state).toBe("refused");
      expect(setting.state === "refused" && setting.reason).toContain(reason);
    },
  );
});

describe("corsSetting", () => {
  it("parses once while the vars stay the same, again when one changes; a refusal is logged once", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const vars = { CORS_ALLOWED_ORIGINS: "https://unit.fixture.test", CORS_MAX_AGE: "60" };
    const first = corsSetting(vars);
    expect(corsSetting({ ...vars })).toBe(first);
    const changed = corsSetting({ ...vars, CORS_MAX_AGE: "61" });
    expect(changed).not.toBe(first);
    expect(changed.state === "on" && changed.policy.maxAge).toBe(61);
    const refused = { ...vars, CORS_ALLOWED_ORIGINS: "*", CORS_ALLOW_CREDENTIALS: "true" };
    corsSetting(refused);
    corsSetting({ ...refused });
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]?.[0])).toContain('"message":"CORS setting refused');
  });
});

describe("resourceCors", () => {
  it("lists a resource's methods as Allow does, and its headers once each, in lower case", () => {
    const cors = resourceCors("GET, HEAD, OPTIONS", {
      requestHeaders: ["Accept", "accept", "X-Fixture"],
      exposedHeaders: ["X-Request-Id", "ETag"],
    });
    expect(cors.allowMethods).toBe("GET, HEAD, OPTIONS");
    expect([...cors.methods]).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(cors.allowHeaders).toBe("accept, x-fixture");
    expect(cors.exposed).toBe("etag, x-request-id");
  });
});
