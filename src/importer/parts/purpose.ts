/**
 * Part 1: what the service does, from `info` (title, summary, description, terms, contact,
 * licence), `externalDocs`, `tags` (and every tag an operation uses) and `servers`.
 */
import type { Findings } from "../findings";
import { literal } from "../schema-code";
import { withoutBase } from "../server-base";
import { child, isObject, type Json } from "../source";
import { counted, extensionsLost, type ImportContext, type PartCode, plainPart } from "./context";

/** The document's title: the service's name in part 1, and the realm of its basic schemes. */
export function documentTitle(document: Json): string {
  return isObject(document.info) && typeof document.info.title === "string"
    ? document.info.title
    : "API";
}

/** Part 1's file; `tagsUsed` are the tags part 4's operations name. */
export function purposePart(ctx: ImportContext, tagsUsed: ReadonlySet<string>): PartCode {
  const { document, findings } = ctx;
  const title = documentTitle(document);
  const info = isObject(document.info) ? document.info : {};
  const purpose: Json = { title };
  for (const key of ["summary", "description", "termsOfService"])
    if (typeof info[key] === "string") purpose[key] = info[key];
  if (isObject(info.contact))
    purpose.contact = pick(
      info.contact,
      ["name", "url", "email"],
      child("#/info", "contact"),
      findings,
    );
  if (isObject(info.license))
    purpose.license = pick(
      info.license,
      ["name", "identifier", "url"],
      child("#/info", "license"),
      findings,
    );
  extensionsLost(ctx, info, "#/info", "info");
  if (isObject(document.externalDocs))
    purpose.externalDocs = pick(
      document.externalDocs,
      ["url", "description"],
      "#/externalDocs",
      findings,
    );
  const tags = declaredTags(ctx, tagsUsed);
  if (Object.keys(tags).length > 0) purpose.tags = tags;
  if (Array.isArray(document.servers) && document.servers.length > 0)
    purpose.servers = document.servers.filter(isObject).map((server, i) => {
      const picked = pick(
        server,
        ["url", "description", "variables"],
        child("#/servers", i),
        findings,
      );
      if (typeof picked.url === "string") picked.url = withoutBase(picked.url, ctx.base);
      return picked;
    });
  return plainPart(
    `export const purpose = ${literal(purpose)} as const satisfies Purpose;`,
    1,
    `"${title}"${purpose.tags ? `, ${counted(Object.keys(tags).length, "tag")}` : ""}${purpose.servers ? `, ${counted((purpose.servers as unknown[]).length, "server")}` : ""}`,
  );
}

/** The document's tags, then every other tag an operation uses. */
function declaredTags(ctx: ImportContext, tagsUsed: ReadonlySet<string>): Json {
  const { document, findings } = ctx;
  const tags: Json = {};
  (Array.isArray(document.tags) ? document.tags : []).forEach((tag, i) => {
    if (!isObject(tag) || typeof tag.name !== "string") return;
    const declared: Json = {};
    if (typeof tag.description === "string") declared.description = tag.description;
    if (isObject(tag.externalDocs))
      declared.externalDocs = pick(
        tag.externalDocs,
        ["url", "description"],
        child("#/tags", i, "externalDocs"),
        findings,
      );
    extensionsLost(ctx, tag, child("#/tags", i), "a tag");
    tags[tag.name] = declared;
  });
  for (const tag of tagsUsed) tags[tag] ??= {};
  return tags;
}

/** The listed fields of an object; any other is a finding. */
function pick(value: Json, keys: readonly string[], pointer: string, findings: Findings): Json {
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    if (keys.includes(key)) out[key] = v;
    else findings.lost(child(pointer, key), `${key}: not carried`);
  }
  return out;
}
