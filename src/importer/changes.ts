/**
 * What a re-import changes against the current contract, shown before anything is written:
 * operations added, removed and changed (as a client sees them: their objects in the served
 * documents), handlers that will no longer fit, and hand edits to files the last import
 * wrote, which the new import would replace. The last import's files are known by their
 * sha-256, listed at the end of IMPORT-REPORT.md.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject, type Json } from "./source";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** Each operation of a served document by its id (platform paths under /_service left out). */
export function operationsOf(document: Json | undefined): Map<string, string> {
  const operations = new Map<string, string>();
  for (const [path, item] of Object.entries((document?.paths as Json | undefined) ?? {})) {
    if (path.startsWith("/_service") || !isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation) || operation["x-platform"] === true) continue;
      const id =
        typeof operation.operationId === "string" ? operation.operationId : `${method} ${path}`;
      operations.set(id, JSON.stringify({ path, method, operation }));
    }
  }
  return operations;
}

interface OperationChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Each changed operation with what changed in it (`responses 401`, `request body`, …). */
  readonly changed: readonly string[];
}

/**
 * Where two served forms of one operation differ, in a client's words: its path or method,
 * the statuses whose answers differ, or the other members of the Operation Object.
 */
function whatChanged(before: string, after: string): string {
  const [a, b] = [JSON.parse(before), JSON.parse(after)] as [Json, Json];
  const parts: string[] = [];
  if (a.path !== b.path || a.method !== b.method) parts.push("path or method");
  const [opA, opB] = [(a.operation ?? {}) as Json, (b.operation ?? {}) as Json];
  for (const key of new Set([...Object.keys(opA), ...Object.keys(opB)])) {
    if (JSON.stringify(opA[key]) === JSON.stringify(opB[key])) continue;
    if (key !== "responses") {
      parts.push(key === "requestBody" ? "request body" : key);
      continue;
    }
    const [ra, rb] = [(opA.responses ?? {}) as Json, (opB.responses ?? {}) as Json];
    const statuses = [...new Set([...Object.keys(ra), ...Object.keys(rb)])].filter(
      (status) => JSON.stringify(ra[status]) !== JSON.stringify(rb[status]),
    );
    parts.push(`responses ${statuses.join(", ")}`);
  }
  return parts.join("; ");
}

/** Operations added, removed and changed between two served documents. */
export function operationChanges(before: Json | undefined, after: Json): OperationChanges {
  const old = operationsOf(before);
  const now = operationsOf(after);
  return {
    added: [...now.keys()].filter((id) => !old.has(id)),
    removed: [...old.keys()].filter((id) => !now.has(id)),
    changed: [...now]
      .filter(([id, text]) => old.has(id) && old.get(id) !== text)
      .map(([id, text]) => `${id} (${whatChanged(old.get(id) as string, text)})`),
  };
}

/** Component schemas added, removed and changed between two served documents. */
export function schemaChanges(
  before: Json | undefined,
  after: Json,
): { added: string[]; removed: string[]; changed: string[] } {
  const [old, now] = [schemasOf(before), schemasOf(after)];
  return {
    added: Object.keys(now).filter((name) => !Object.hasOwn(old, name)),
    removed: Object.keys(old).filter((name) => !Object.hasOwn(now, name)),
    changed: Object.keys(now).filter(
      (name) => Object.hasOwn(old, name) && JSON.stringify(old[name]) !== JSON.stringify(now[name]),
    ),
  };
}

const schemasOf = (document: Json | undefined): Json => {
  const components = document?.components;
  return isObject(components) && isObject(components.schemas) ? components.schemas : {};
};

/**
 * The changes that break an existing caller, each in one line, in the classes oasdiff and
 * openapi-diff use: an operation removed; a status or a media type dropped from an answer or
 * a request; a parameter or a member newly required; a member removed from an answer; a type
 * or an enum narrowed. Component schemas are compared by name, and each operation's own
 * request and answer schemas where they are written in place; a change inside a schema is
 * said once, at the schema.
 */
export function breakingChanges(before: Json | undefined, after: Json): string[] {
  if (!before) return [];
  const said: string[] = [];
  const [old, now] = [operationsOf(before), operationsOf(after)];
  for (const id of old.keys()) if (!now.has(id)) said.push(`operation ${id} removed`);
  for (const [id, text] of now) {
    const was = old.get(id);
    if (was === undefined || was === text) continue;
    const [wasServed, isServed] = [JSON.parse(was), JSON.parse(text)] as {
      path: string;
      method: string;
      operation: Json;
    }[];
    const [a, b] = [wasServed?.operation ?? {}, isServed?.operation ?? {}];
    if (wasServed?.path !== isServed?.path || wasServed?.method !== isServed?.method)
      said.push(
        `${id}: moved from ${wasServed?.method.toUpperCase()} ${wasServed?.path} to ${isServed?.method.toUpperCase()} ${isServed?.path}`,
      );
    const [ra, rb] = [asJson(a.responses), asJson(b.responses)];
    for (const status of Object.keys(ra)) {
      if (!Object.hasOwn(rb, status)) {
        said.push(`${id}: answer ${status} dropped`);
        continue;
      }
      const [ca, cb] = [asJson(asJson(ra[status]).content), asJson(asJson(rb[status]).content)];
      for (const type of Object.keys(ca)) {
        if (!Object.hasOwn(cb, type)) said.push(`${id}: answer ${status} as ${type} dropped`);
        else
          narrowed(
            asJson(ca[type]).schema,
            asJson(cb[type]).schema,
            `${id}: answer ${status}`,
            said,
            "answer",
          );
      }
    }
    const [qa, qb] = [asJson(asJson(a.requestBody).content), asJson(asJson(b.requestBody).content)];
    for (const type of Object.keys(qa)) {
      if (!Object.hasOwn(qb, type)) said.push(`${id}: request body as ${type} dropped`);
      else
        narrowed(
          asJson(qa[type]).schema,
          asJson(qb[type]).schema,
          `${id}: request body`,
          said,
          "request",
        );
    }
    if (asJson(b.requestBody).required === true && asJson(a.requestBody).required !== true)
      said.push(`${id}: request body newly required`);
    const required = (op: Json) =>
      new Set(
        (Array.isArray(op.parameters) ? op.parameters : [])
          .filter((p) => isObject(p) && p.required === true)
          .map((p) => `${String((p as Json).in)} ${String((p as Json).name)}`),
      );
    const [pa, pb] = [required(a), required(b)];
    for (const parameter of pb)
      if (!pa.has(parameter)) said.push(`${id}: parameter ${parameter} newly required`);
  }
  const [sa, sb] = [schemasOf(before), schemasOf(after)];
  for (const name of Object.keys(sa))
    if (Object.hasOwn(sb, name)) narrowed(sa[name], sb[name], `schema ${name}`, said, "both");
  return said;
}

const asJson = (value: unknown): Json => (isObject(value) ? value : {});

/** What `after` narrows of `before`: the schema and its members (references are compared by name). */
function narrowed(
  before: unknown,
  after: unknown,
  where: string,
  said: string[],
  direction: "request" | "answer" | "both",
  depth = 0,
): void {
  const [a, b] = [asJson(before), asJson(after)];
  if (typeof a.$ref === "string" || typeof b.$ref === "string") {
    if (a.$ref !== b.$ref)
      said.push(
        `${where}: schema ${String(a.$ref ?? "in place")} replaced by ${String(b.$ref ?? "one in place")}`,
      );
    return;
  }
  const types = (s: Json) =>
    new Set(
      typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type.map(String) : [],
    );
  const [ta, tb] = [types(a), types(b)];
  if (
    ta.size > 0 &&
    tb.size > 0 &&
    [...ta].some((t) => !tb.has(t) && !(t === "integer" && tb.has("number")))
  )
    said.push(`${where}: type narrowed from ${[...ta].join(" or ")} to ${[...tb].join(" or ")}`);
  if (Array.isArray(a.enum) && Array.isArray(b.enum)) {
    const kept = new Set(b.enum.map((v) => JSON.stringify(v)));
    const gone = a.enum.filter((v) => !kept.has(JSON.stringify(v)));
    if (gone.length > 0)
      said.push(
        `${where}: enum narrowed (${gone.map((v) => JSON.stringify(v)).join(", ")} no longer allowed)`,
      );
  } else if (!Array.isArray(a.enum) && Array.isArray(b.enum)) said.push(`${where}: enum newly set`);
  const [pa, pb] = [asJson(a.properties), asJson(b.properties)];
  if (direction !== "request")
    for (const member of Object.keys(pa))
      if (!Object.hasOwn(pb, member)) said.push(`${where}: member ${member} removed`);
  // A member both have, narrowed in place (its own members are its schema's to say).
  if (depth === 0)
    for (const member of Object.keys(pa))
      if (Object.hasOwn(pb, member))
        narrowed(pa[member], pb[member], `${where}, member ${member}`, said, direction, 1);
  if (direction !== "answer") {
    const was = new Set(Array.isArray(a.required) ? a.required.map(String) : []);
    for (const member of Array.isArray(b.required) ? b.required.map(String) : [])
      if (!was.has(member)) said.push(`${where}: member ${member} newly required`);
  }
}

/**
 * The operation ids src/handlers.ts attaches handlers to: the keys of the object given to
 * `defineHandlers`, as Biome lays them out (two spaces in, a name then `:` or `(`).
 */
export function handlerIds(text: string): string[] {
  const start = text.search(/defineHandlers(?:<typeof contract>)?\(/);
  if (start === -1) return [];
  const ids: string[] = [];
  for (const line of text.slice(start).split("\n")) {
    // The object ends where a line starts with its closing brace (Biome's layout).
    if (/^\}/.test(line)) break;
    const match = /^ {2}(?:"([^"]+)"|([A-Za-z_$][\w$]*))\s*(?::|\()/.exec(line);
    const id = match?.[1] ?? match?.[2];
    if (id) ids.push(id);
  }
  return ids;
}

/** Whether src/handlers.ts attaches no handler yet (the form the importer writes). */
export const noHandlers = (text: string) =>
  /defineHandlers(?:<typeof contract>\(|\(contract, )\{\}\)/.test(text);

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const MANIFEST_HEADING = "## Files this import wrote";

/**
 * What decides an import's output besides the document: the importer's own code and the
 * contract language it writes for, as one sha-256. The same document through the same
 * importer writes the same files, so a re-import of it need not be proved again.
 */
export function importerFingerprint(root: string): string {
  const hash = createHash("sha256");
  for (const dir of ["src/importer", "src/contract-language", "test/support"]) {
    const files = readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".ts"))
      .sort();
    for (const name of files)
      hash.update(`${dir}/${name}\n`).update(readFileSync(join(root, dir, name)));
  }
  return hash.digest("hex");
}

/** The manifest section of IMPORT-REPORT.md: each file the import wrote, with its sha-256. */
export function manifestSection(
  files: ReadonlyMap<string, string>,
  made: { readonly source: string; readonly importer: string },
): string {
  const lines = [
    MANIFEST_HEADING,
    "",
    "A later import replaces these files; it compares each with its sha-256 here first, and lists any that were edited since, before it writes.",
    "",
    `Made from the source with sha-256 ${made.source} by the importer with fingerprint ${made.importer}.`,
    "",
    "| file | sha-256 |",
    "| --- | --- |",
    ...[...files].map(([path, hash]) => `| \`${path}\` | ${hash} |`),
  ];
  return `${lines.join("\n")}\n`;
}

/** What made the last import's files: the source's and the importer's sha-256, if recorded. */
export function lastMade(root: string): { source: string; importer: string } | undefined {
  const file = join(root, "src/contract/IMPORT-REPORT.md");
  if (!existsSync(file)) return undefined;
  const match =
    /Made from the source with sha-256 ([0-9a-f]{64}) by the importer with fingerprint ([0-9a-f]{64})\./.exec(
      readFileSync(file, "utf8"),
    );
  return match?.[1] && match[2] ? { source: match[1], importer: match[2] } : undefined;
}

/** Whether every file the last import wrote is still exactly as it wrote it. */
export function untouchedSinceImport(root: string): boolean {
  const manifest = lastManifest(root);
  return (
    manifest.size > 0 &&
    [...manifest].every(([path, hash]) => {
      const file = join(root, path);
      return existsSync(file) && sha256(readFileSync(file, "utf8")) === hash;
    })
  );
}

/** The files the last import wrote, with their sha-256, from IMPORT-REPORT.md; empty without one. */
function lastManifest(root: string): Map<string, string> {
  const file = join(root, "src/contract/IMPORT-REPORT.md");
  const manifest = new Map<string, string>();
  if (!existsSync(file)) return manifest;
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(MANIFEST_HEADING);
  if (at === -1) return manifest;
  // Biome pads the table's cells: the spaces around a cell are not part of it.
  for (const match of text.slice(at).matchAll(/^\|\s*`([^`]+)`\s*\|\s*([0-9a-f]{64})\s*\|$/gm))
    if (match[1] && match[2]) manifest.set(match[1], match[2]);
  return manifest;
}

/**
 * The files an import would replace that hold hand edits: edited since the last import
 * wrote them, or, where no import wrote them, any that declares something.
 */
export function handEdits(
  root: string,
  replaced: readonly string[],
  declaresSomething: (path: string, text: string) => boolean,
): string[] {
  const manifest = lastManifest(root);
  return replaced.filter((path) => {
    const file = join(root, path);
    if (!existsSync(file)) return false;
    const text = readFileSync(file, "utf8");
    const written = manifest.get(path);
    return written === undefined ? declaresSomething(path, text) : written !== sha256(text);
  });
}
