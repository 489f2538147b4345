/**
 * Whether answers of declared operations are checked against their declarations: the
 * `RESPONSE_VALIDATION` Worker var (wrangler.toml), a platform setting and not part of
 * the service's interface.
 */
export type ResponseValidationMode = "off" | "log" | "enforce";

/** `off`, `log` (a warning per mismatch) or `enforce` (a mismatch becomes a 500); anything else is `log`. */
export function responseValidationMode(
  env: { RESPONSE_VALIDATION?: string } | undefined,
): ResponseValidationMode {
  const mode = env?.RESPONSE_VALIDATION;
  return mode === "off" || mode === "enforce" ? mode : "log";
}
