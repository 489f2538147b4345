/**
 * The names the importer gives what a deployment must set: a Worker secret or var name
 * reads as the security scheme's own name does (a user reported O_AUTH2_JWKS_URL for a
 * scheme called OAuth2).
 */
import { describe, expect, it } from "vitest";
import { screamingSnake } from "../../src/importer/names";

describe("screamingSnake", () => {
  it.each([
    ["OAuth2", "OAUTH2"],
    ["oAuthToken", "OAUTH_TOKEN"],
    ["APIKey", "API_KEY"],
    ["X-API-Key", "X_API_KEY"],
    ["HTTPBasic", "HTTP_BASIC"],
    ["bearerAuth", "BEARER_AUTH"],
    ["api_key", "API_KEY"],
    ["petstore_auth", "PETSTORE_AUTH"],
    ["MuseumPlaceholderAuth", "MUSEUM_PLACEHOLDER_AUTH"],
    ["2fa", "KEY_2FA"],
  ])("%s is %s", (name, expected) => {
    expect(screamingSnake(name)).toBe(expected);
  });
});
