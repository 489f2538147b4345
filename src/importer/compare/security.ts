/**
 * Security schemes (part 5): served under their name, with what each says.
 */
import { child, follow, isObject } from "../source";
import { type Comparer, components } from "./context";

/** Security schemes: served under their name, with what each says. */
export function compareSecuritySchemes(c: Comparer): void {
  const servedSchemes = components(c.served, "securitySchemes");
  for (const [name, raw] of Object.entries(components(c.source, "securitySchemes"))) {
    const at = child("#", "components", "securitySchemes", name);
    const { node: scheme } = follow(c.source, raw, at);
    const servedScheme = servedSchemes[name];
    if (!isObject(scheme)) continue;
    c.record(
      "security",
      at,
      isObject(servedScheme),
      `security scheme ${name} is missing (and so is every way in that needs it)`,
    );
    if (!isObject(servedScheme)) continue;
    for (const key of ["type", "in", "name", "openIdConnectUrl", "bearerFormat"])
      c.same("security", child(at, key), scheme[key], servedScheme[key], key);
    if (typeof scheme.scheme === "string")
      c.same(
        "security",
        child(at, "scheme"),
        scheme.scheme.toLowerCase(),
        String(servedScheme.scheme).toLowerCase(),
        "scheme",
      );
    c.text(
      "security",
      child(at, "description"),
      scheme.description,
      servedScheme.description,
      "description",
    );
    if (isObject(scheme.flows))
      c.same("security", child(at, "flows"), scheme.flows, servedScheme.flows, "flows");
  }
}
