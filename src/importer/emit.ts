/**
 * The files an import writes: the part files of src/contract (each part the document
 * declares; the others empty, except part 3, which OpenAPI does not carry and which is left
 * as it is), SPECIFICATION.md's sections for the parts the document gives, the import
 * report, and the Worker entry the contract then needs.
 */
import { basename } from "node:path";
import { SPEC_PARTS, type SpecPart } from "../contract-language/parts";
import type { ImportResult, PartCode } from "./contract-code";
import { causeClass, type Finding, type FindingKind, isLeftOut } from "./findings";
import { propertyKey } from "./schema-code";
import type { OpenApiSource } from "./source";

/** The declaration type each part file satisfies, and whether the part is one value or a record. */
const PART_TYPES: Readonly<Record<string, { type: string; single: boolean }>> = {
  purpose: { type: "Purpose", single: true },
  resources: { type: "Schema", single: false },
  states: { type: "StateMachine", single: false },
  endpoints: { type: "Operation", single: false },
  authentication: { type: "SecurityScheme", single: false },
  events: { type: "EventDeclaration", single: false },
  errors: { type: "ErrorType", single: false },
  limits: { type: "Limit", single: false },
  versioning: { type: "Versioning", single: true },
};

const EXPORTS: Readonly<Record<string, string>> = {
  purpose: "purpose",
  resources: "resources",
  states: "states",
  endpoints: "operations",
  authentication: "securitySchemes",
  events: "events",
  errors: "errors",
  limits: "limits",
  versioning: "versioning",
};

/** A part file that declares nothing: the form the shipped contract has. */
export function emptyPartFile(part: SpecPart): string {
  const { type, single } = PART_TYPES[part.name] as { type: string; single: boolean };
  const value = single
    ? `undefined satisfies ${type} | undefined`
    : `{} as const satisfies Readonly<Record<string, ${type}>>`;
  return `/**
 * Spec part ${part.number}, "${part.title}": not specified (SPECIFICATION.md, beside this
 * file, does not give it), so nothing is declared here. README.md, beside this file, says
 * how to declare it once a revision does.
 */
import type { ${type} } from "../contract-language/contract";

export const ${EXPORTS[part.name]} = ${value};
`;
}

/** The line of a part file's header that says the import wrote it (and writes it again). */
export const WRITTEN_BY_IMPORT =
  " * writes this file; IMPORT-REPORT.md, beside it, lists what the document says that the";

/** A part file with what the import declares in it. */
function partFile(
  part: SpecPart,
  code: PartCode,
  source: OpenApiSource,
  result: ImportResult,
): string {
  const type = code.type ?? (PART_TYPES[part.name] as { type: string }).type;
  const lines = [
    "/**",
    ` * Spec part ${part.number}, "${part.title}": imported from the OpenAPI document`,
    ` * ${basename(source.file)} (${source.format}) by \`npm run contract:import\`, which`,
    WRITTEN_BY_IMPORT,
    " * contract does not carry.",
    " */",
  ];
  // Only where the code calls zod: an unused import is a Biome warning in the service's code.
  if (/(?<![\w$.])z\./.test(code.body)) lines.push('import * as z from "zod/mini";');
  const types = [type, ...(code.uses.has("Schema") && type !== "Schema" ? ["Schema"] : [])].sort();
  lines.push(`import type { ${types.join(", ")} } from "../contract-language/contract";`);
  if (code.uses.has("component"))
    lines.push('import { component } from "../contract-language/lazy";');
  const marks = (["readOnly", "writeOnly"] as const).filter((h) => code.uses.has(h));
  if (marks.length > 0)
    lines.push(`import { ${marks.join(", ")} } from "../contract-language/schema";`);
  const text = (["booleanFromText", "numberFromText"] as const).filter((h) => code.uses.has(h));
  if (text.length > 0)
    lines.push(`import { ${text.join(", ")} } from "../contract-language/text";`);
  const formats = (["dateTimeFormat", "emailFormat", "pattern", "uriFormat"] as const).filter((h) =>
    code.uses.has(h),
  );
  if (formats.length > 0)
    lines.push(`import { ${formats.join(", ")} } from "../contract-language/formats";`);
  let body = code.body;
  // A part file exports its declaration only: the others take part 2's schemas from it.
  if (part.name !== "resources" && code.referenced.size > 0) {
    lines.push('import { resources } from "./resources";');
    const entries = [...code.referenced].sort().map((name) => {
      const id = result.identifiers.get(name) as string;
      const key = result.resourceKeys.get(name) as string;
      return key === id ? id : `${propertyKey(key)}: ${id}`;
    });
    body = `const { ${entries.join(", ")} } = resources;\n\n${body}`;
  }
  if (THEN_KEY.test(body)) lines.unshift(THEN_SUPPRESSION);
  return `${lines.join("\n")}\n\n${body}\n`;
}

/**
 * A `then` key, bare or quoted, as the importer writes keys. A document may well have one (a
 * property, an example's field, JSON Schema's if/then carried as metadata), and Biome refuses
 * any object with one (noThenProperty: an accidental thenable). In a contract it is data.
 */
const THEN_KEY = /(?:^|[{,\s])"?then"?\s*:/m;
const THEN_SUPPRESSION =
  "// biome-ignore-all lint/suspicious/noThenProperty: the document's own names and keywords, data that is never awaited";

export interface WrittenFile {
  readonly path: string;
  readonly text: string;
}

/**
 * Every file of src/contract the import writes. Part 3's is left alone unless the document
 * carries machines (the service's own does, as x-state-machines): OpenAPI itself has none.
 */
export function contractFiles(result: ImportResult, source: OpenApiSource): WrittenFile[] {
  return SPEC_PARTS.filter((part) => part.name !== "states" || result.parts.has("states")).map(
    (part) => {
      const code = result.parts.get(part.name);
      return {
        path: `src/contract/${part.name}.ts`,
        text: code ? partFile(part, code, source, result) : emptyPartFile(part),
      };
    },
  );
}

/** SPECIFICATION.md with the parts the document gives said so; the others as they were. */
export function specificationText(
  current: string,
  result: ImportResult,
  source: OpenApiSource,
): string {
  const headings = [...current.matchAll(/^## (\d+)\. .+$/gm)];
  const first = headings[0]?.index ?? current.length;
  const version = result.parts.get("versioning")
    ? `, version ${/"current":"([^"]*)"/.exec(result.parts.get("versioning")?.body.replace(/\s/g, "") ?? "")?.[1] ?? ""}`
    : "";
  const preamble = [
    "# Service Interface Specification",
    "",
    `This revision of the specification is the OpenAPI document \`${basename(source.file)}\` (${source.format}${version}; sha-256 ${source.sha256}), imported with \`npm run contract:import\`. The contract beside this file is written from it, and IMPORT-REPORT.md lists what the contract does not carry. A part the document does not give is as the specification left it.`,
    "",
  ].join("\n");
  let out = `${preamble}\n`;
  headings.forEach((heading, i) => {
    const start = heading.index ?? 0;
    const end = headings[i + 1]?.index ?? current.length;
    const number = Number(heading[1]);
    const part = SPEC_PARTS.find((p) => p.number === number);
    const code = part ? result.parts.get(part.name) : undefined;
    if (!part || !code) {
      out += current.slice(start, end);
      return;
    }
    out += `${heading[0]}\n\nGiven by the OpenAPI document: ${code.summary}.\n\n`;
  });
  return first === current.length ? current : `${out.trimEnd()}\n`;
}

const KIND_TITLES: Readonly<Record<FindingKind, string>> = {
  lost: "Not carried",
  "not-enforced": "In the served document, not enforced",
  changed: "Carried differently",
};

/** Where the staged Worker's build says the sandbox places each operation (src/importer/served-document.ts). */
export const SANDBOX_PLACES = ".wrangler/sandbox-places.json";

/** Where the sandbox places an operation without a handler, and why (the status report's `sandbox`). */
export interface SandboxPlace {
  readonly id: string;
  readonly place: string;
  readonly resource?: string;
  readonly why: string;
}

/**
 * The sandbox section: which operations act on stored resources under
 * `UNHANDLED_OPERATIONS=sandbox`, and why each other one answers from its examples.
 */
function sandboxSection(places: readonly SandboxPlace[]): string[] {
  const placed = places.filter(({ place }) => place !== "examples");
  const lines = [
    "",
    "## The sandbox",
    "",
    places.length === 0
      ? "Every operation has a handler: none is answered by the sandbox."
      : `Under \`UNHANDLED_OPERATIONS=sandbox\` (\`npm run dev -- --var UNHANDLED_OPERATIONS:sandbox\`), ${placed.length} of the ${places.length} operations without a handler act on stored resources; the others answer from their examples (src/mocks/README.md, "How an operation is placed", says how).`,
  ];
  if (places.length === 0) return lines;
  lines.push("", "| Operation | Answered by | Why |", "| --- | --- | --- |");
  for (const { id, place, resource, why } of places) {
    const by = place === "examples" ? "examples" : `sandbox: ${place} (${resource ?? ""})`;
    lines.push(`| \`${id}\` | ${escapeMarkdown(by)} | ${escapeMarkdown(why)} |`);
  }
  return lines;
}

/** The import report: what each part declares, then every finding with its pointer. */
export function reportText(
  result: ImportResult,
  source: OpenApiSource,
  places?: readonly SandboxPlace[],
): string {
  const leftOut = result.findings.filter(isLeftOut);
  const lines = [
    "# Import report",
    "",
    `Source: \`${basename(source.file)}\` (${source.format}; sha-256 ${source.sha256}), read by \`npm run contract:import\`, which writes this file. \`npm run contract:diff -- <file>\` compares the OpenAPI document the service now serves with the source. Pointers are JSON Pointers into the ${source.convertedFrom ? "converted document" : "source"}, with files it refers to bundled in where they are first used.`,
    "",
    "First what was left out, each unit with its cause; then every finding counted by class; then what was written, and the findings one by one (a vendor extension's notices are one line per name).",
    "",
    `## Left out (${leftOut.length})`,
    "",
  ];
  if (leftOut.length === 0)
    lines.push(
      "Nothing: every operation, path, webhook and component of the document is in the contract.",
    );
  for (const finding of leftOut)
    lines.push(
      `- \`${finding.pointer}\`: ${escapeMarkdown(finding.message.replace(/^left out: /, ""))}`,
    );
  lines.push("", "## Findings by class", "", "| Kind | Class | Count |", "| --- | --- | --- |");
  for (const [kind, cause, count] of findingClasses(result.findings))
    lines.push(`| ${kind} | ${escapeMarkdown(cause)} | ${count} |`);
  lines.push("", "## What was written", "", "| Part | Declared |", "| --- | --- |");
  for (const part of SPEC_PARTS) {
    const code = result.parts.get(part.name);
    const what =
      part.name === "states" && !code
        ? "not something OpenAPI carries: left as it was"
        : code
          ? code.summary
          : "nothing in the document";
    lines.push(`| ${part.number}. ${part.title} | ${what} |`);
  }
  for (const kind of ["lost", "not-enforced", "changed"] as const) {
    const found = result.findings.filter((f) => f.kind === kind && !isLeftOut(f));
    const { each, extensions } = withExtensionsGrouped(found);
    lines.push("", `## ${KIND_TITLES[kind]} (${found.length})`, "");
    if (found.length === 0) lines.push("Nothing.");
    for (const [name, { count, first }] of extensions)
      lines.push(
        `- \`${name}\`, a vendor extension, at ${count === 1 ? `\`${first}\`` : `${count} places (the first \`${first}\`)`}: not carried`,
      );
    for (const finding of each)
      lines.push(`- \`${finding.pointer}\`: ${escapeMarkdown(finding.message)}`);
  }
  if (places) lines.push(...sandboxSection(places));
  return `${lines.join("\n")}\n`;
}

/** A vendor extension's notice (`x-foo: an extension of …`): its name, else undefined. */
const extensionNamed = (finding: Finding): string | undefined =>
  /^(x-[^:\s]+): an extension of /.exec(finding.message)?.[1];

/** The findings but the vendor extensions' notices, and those by extension name. */
function withExtensionsGrouped(findings: readonly Finding[]): {
  each: Finding[];
  extensions: Map<string, { count: number; first: string }>;
} {
  const each: Finding[] = [];
  const extensions = new Map<string, { count: number; first: string }>();
  for (const finding of findings) {
    const name = extensionNamed(finding);
    if (name === undefined) {
      each.push(finding);
      continue;
    }
    const known = extensions.get(name);
    if (known) known.count += 1;
    else extensions.set(name, { count: 1, first: finding.pointer });
  }
  return { each, extensions };
}

/** Every finding counted by kind and class (causeClass), left out first, then most frequent. */
function findingClasses(findings: readonly Finding[]): [string, string, number][] {
  const counts = new Map<string, [string, string, number]>();
  for (const finding of findings) {
    const kind = isLeftOut(finding) ? "left out" : FINDING_WORDS[finding.kind];
    const name = extensionNamed(finding);
    const cause = name === undefined ? causeClass(finding.message) : "a vendor extension";
    const key = `${kind}\n${cause}`;
    const known = counts.get(key);
    if (known) known[2] += 1;
    else counts.set(key, [kind, cause, 1]);
  }
  const order = (kind: string) => (kind === "left out" ? 0 : 1);
  return [...counts.values()].sort(
    (a, b) => order(a[0]) - order(b[0]) || b[2] - a[2] || a[1].localeCompare(b[1]),
  );
}

const escapeMarkdown = (text: string) => text.replace(/([*_[\]<>|])/g, "\\$1");

/** Each kind of finding as the report's sections and the import's summary name it. */
export const FINDING_WORDS: Readonly<Record<FindingKind, string>> = {
  lost: "not carried",
  "not-enforced": "not enforced",
  changed: "carried differently",
};

/** The order the console shows them in: what a caller of the API meets first. */
const CONSOLE_ORDER: Readonly<Record<FindingKind, number>> = {
  lost: 1,
  changed: 2,
  "not-enforced": 3,
};

/** One line per finding, for the terminal. */
function findingLine(finding: Finding): string {
  return `  ${FINDING_WORDS[finding.kind].padEnd(19)} ${finding.pointer}: ${finding.message}`;
}

/** How many findings the console shows before it points to the report. */
const FINDINGS_SHOWN = 30;

/**
 * The findings as the import prints them: all of them while they are few. Else, so the
 * summary is not lost above hundreds of lines, one line per message (the same message at
 * many places, as an extension a document writes on every schema, is said once with how
 * many places it is at), what was left out first (what a caller of the API cannot reach),
 * then what is not carried, carried differently, not enforced, up to `shown` lines, then
 * how many more there are and where they all are.
 */
export function findingsOnConsole(
  findings: readonly Finding[],
  report: string,
  shown = FINDINGS_SHOWN,
): string[] {
  if (findings.length <= shown) return findings.map(findingLine);
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = `${finding.kind}\n${finding.message}`;
    const group = groups.get(key);
    if (group) group.push(finding);
    else groups.set(key, [finding]);
  }
  const rank = (finding: Finding) => (isLeftOut(finding) ? 0 : CONSOLE_ORDER[finding.kind]);
  const ordered = [...groups.values()].sort(
    (a, b) => rank(a[0] as Finding) - rank(b[0] as Finding),
  );
  const lines = ordered.slice(0, shown).map(([first, ...others]) => {
    const finding = first as Finding;
    if (others.length === 0) return findingLine(finding);
    const places = `${others.length + 1} places, the first ${finding.pointer}`;
    return `  ${FINDING_WORDS[finding.kind].padEnd(19)} ${places}: ${finding.message}`;
  });
  const rest = ordered.slice(shown).reduce((sum, group) => sum + group.length, 0);
  return [
    ...lines,
    rest > 0
      ? `  … and ${rest} more: every finding is in ${report}`
      : `  every finding, at each of its places, is in ${report}`,
  ];
}

/**
 * The Worker entry, which is the same for every contract: the build (`npm run build:contract`,
 * src/build/) checks the contract and gives the entry what it needs of the engine, so an
 * import no longer chooses the engine's features itself. Written again by every import, so a
 * project whose entry still builds the app in the Worker (and so ships zod's converter and
 * the documenter) gets the one that serves what the build made.
 */
export function entryFile(): string {
  return ENTRY;
}

const ENTRY = `/**
 * The Worker entry: the app served from the service's contract, its handlers and what the
 * build made of them (src/generated/contract.ts, written by \`npm run build:contract\`, which
 * \`wrangler dev\`, \`npm run build\`, \`wrangler deploy\` and \`npm test\` run first): the
 * contract's documents and exactly the engine features it needs (the serving engine once it
 * declares more than its purpose, with the JWT verifier for a JWT scheme; the XML codec for
 * an XML media type). Nothing else happens here; the option types refuse to compile without
 * the engine or the codec the contract needs, and the engine refuses to start without a
 * feature it needs, so a stale build fails (src/contract/README.md, "What the Worker carries").
 */

import { BUILT } from "./generated/contract";
// The contract as the Worker serves it: src/contract without the text only its documents
// carry (src/build/served-contract.ts); its types are the declared contract's.
import { contract } from "./generated/served-contract";
// A handlers file written before verifiers existed exports none: the entry still compiles.
import * as code from "./handlers";
import { type ServeOptions, serveApp } from "./serve-app";

// The Durable Object classes its bindings name (the sandbox's, when the contract has one).
export * from "./generated/durable-objects";

const { handlers } = code;
const { verifiers } = code as Pick<ServeOptions<typeof contract>, "verifiers">;
const app = serveApp(contract, { handlers, ...(verifiers ? { verifiers } : {}), ...BUILT });

export default {
  fetch: app.fetch,
  // Part 6's deliveries, once the contract declares events; undefined otherwise.
  queue: app.queue,
} satisfies ExportedHandler<Env>;
`;

/** src/handlers.ts while no operation has a handler. */
export function handlersFile(operations: number): string {
  return `/**
 * The handlers of the service's operations, by operation id. Part 4 declares ${operations} operation${operations === 1 ? "" : "s"}
 * and none has a handler yet: each validates its input and answers 501. A handler added
 * here is type-checked against its operation's declaration in \`src/contract/endpoints.ts\`.
 */

import type { contract } from "./contract";
import { defineHandlers } from "./contract-language/define-handlers";
import { defineVerifiers } from "./contract-language/verifiers";

export const handlers = defineHandlers<typeof contract>({});

/**
 * Verifiers of part 5's schemes that only code can check (\`verifiedBy: "code"\`), by scheme
 * name: until one is given, its way in refuses every request (401).
 */
export const verifiers = defineVerifiers<typeof contract>({});
`;
}
