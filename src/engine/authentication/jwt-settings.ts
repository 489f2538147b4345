/**
 * The deployment's side of a JWT scheme: the key set URL, issuer and audience, read from
 * the Worker vars the scheme names. Kept apart from the verifier (./jwt.ts), so that the
 * start-up and per-request reading of vars does not bring jose into a Worker.
 */
import type { JwtVerification } from "../../domain/contract";
import type { JwtSettings } from "../../platform/engine";

/** The deployment's values for the vars a scheme names; a reason when they cannot be used. */
export function jwtSettings(
  verification: JwtVerification,
  env: Readonly<Record<string, unknown>>,
): JwtSettings | string {
  const read = (name: string) => {
    const value = env[name];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  };
  const [url, issuer, audience] = [
    read(verification.jwksUrl),
    read(verification.issuer),
    read(verification.audience),
  ];
  if (!url || !issuer || !audience) {
    const missing = ["jwksUrl", "issuer", "audience"] as const;
    return `var ${missing
      .filter((field) => !read(verification[field]))
      .map((field) => verification[field])
      .join(", ")} is not set`;
  }
  let jwksUrl: URL;
  try {
    jwksUrl = new URL(url);
  } catch {
    return `var ${verification.jwksUrl} is not a URL`;
  }
  if (jwksUrl.protocol !== "https:") return `var ${verification.jwksUrl} is not an https: URL`;
  return { jwksUrl, issuer, audience };
}
