/**
 * Component schemas (part 2), keyword by keyword, each under the name it is served by.
 */
import { resourceFromViews } from "../renames";
import { child } from "../source";
import { type Comparer, components } from "./context";

/**
 * Component schemas, keyword by keyword. One the import renamed is one `changed` item,
 * and its keywords are compared with the schema served under the new name.
 */
export function compareComponentSchemas(c: Comparer): void {
  const servedSchemas = components(c.served, "schemas");
  for (const [name, schema] of Object.entries(components(c.source, "schemas"))) {
    const at = child("#", "components", "schemas", name);
    const servedName = c.renames.schema(name);
    // Where only its direction views stand for it, the resource as they say it together.
    const servedSchema = servedSchemas[servedName] ?? resourceFromViews(servedSchemas, servedName);
    if (servedName !== name && servedSchema !== undefined) {
      const why = c.renames.isPlatformSchema(name)
        ? `: the platform's own schema is called ${name}`
        : "";
      c.change("schemas", at, `served as ${servedName}${why}`);
      c.schemas.keywords(at, schema, servedSchema);
      continue;
    }
    // The platform's own schema has this name, and the source's is served under none.
    if (c.renames.isPlatformSchema(name)) {
      c.record(
        "schemas",
        at,
        false,
        `${name} is the platform's own schema's name; the source's is missing`,
      );
      continue;
    }
    c.record("schemas", at, servedSchema !== undefined, `component schema ${name} is missing`);
    if (servedSchema !== undefined) c.schemas.keywords(at, schema, servedSchema);
  }
}
