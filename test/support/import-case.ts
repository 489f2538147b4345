/**
 * One importer case, in process: an OpenAPI document the test writes is put in
 * test/artifacts/imports/<case>/, imported (src/importer), and its part files are
 * written beside a link to src/contract-language, so the generated contract is imported like the real
 * one and served by the real app; test/importer/contract-code.slow.test.ts then compiles
 * every case written there. What the importer's own CLI adds (Biome, wrangler.toml, the
 * entry) is tested through the CLI itself (test/importer/import.cli.slow.test.ts).
 *
 * Below, the FIXTURE documents the importer's tests build their cases from (`bodyCase`,
 * `getCase`, …) and how they read a case (`accepts`, `served`, `findingLines`), written once
 * for every test file under test/importer/.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { toJSONSchema } from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import type { Contract } from "../../src/contract-language/contract";
import { XML_CODEC } from "../../src/engine/xml/codec";
import { type ImportResult, importContract } from "../../src/importer/contract-code";
import { contractFiles } from "../../src/importer/emit";
import type { Finding } from "../../src/importer/findings";
import { type Json, readOpenApi } from "../../src/importer/source";

export { CASES } from "./import-cases-setup";

import { CASES } from "./import-cases-setup";

export interface ImportedCase {
  readonly dir: string;
  readonly result: ImportResult;
  readonly findings: readonly Finding[];
  /** The part files' code, by part name (`endpoints`, …). */
  readonly code: Readonly<Record<string, string>>;
  readonly contract: Contract;
  /** The app built from the contract, with the engine and zod's converter. */
  readonly app: ReturnType<typeof createApp>;
  /** The document the app serves. */
  served(): Promise<Json>;
  /** The source document as read. */
  readonly source: Json;
}

/** A document as a file: JSON from an object, or YAML as the test writes it. */
export type Document = Json | { readonly yaml: string };

let counter = 0;

/** An imported case as files: its directory, what the import made, each part file's code. */
export interface WrittenCase {
  readonly dir: string;
  readonly result: ImportResult;
  readonly code: Readonly<Record<string, string>>;
  readonly source: Json;
  /** The contract module's path (`src/contract/index.ts` in the case's directory). */
  readonly index: string;
}

/** Imports `document` into test/artifacts/imports/<case>/ and writes its contract files. */
export async function writeCase(
  name: string,
  document: Document,
  extraFiles: Readonly<Record<string, string>> = {},
): Promise<WrittenCase> {
  counter += 1;
  const dir = join(CASES, `${name}-${process.pid}-${counter}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "src/contract"), { recursive: true });
  symlinkSync(resolve("src/contract-language"), join(dir, "src/contract-language"), "dir");
  const file = join(dir, "yaml" in document ? "openapi.yaml" : "openapi.json");
  writeFileSync(
    file,
    "yaml" in document ? String(document.yaml) : JSON.stringify(document, null, 2),
  );
  for (const [path, text] of Object.entries(extraFiles)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const source = await readOpenApi(file);
  const result = importContract(source);
  const code: Record<string, string> = {};
  for (const written of contractFiles(result, source)) {
    writeFileSync(join(dir, written.path), written.text);
    code[written.path.replace(/^src\/contract\/|\.ts$/g, "")] = written.text;
  }
  // Part 3 as the project has it, unless the document carried machines.
  if (!result.parts.has("states"))
    writeFileSync(join(dir, "src/contract/states.ts"), "export const states = {} as const;\n");
  const index = join(dir, "src/contract/index.ts");
  writeFileSync(
    index,
    [
      'import { defineContract } from "../contract-language/define-contract";',
      'import { securitySchemes } from "./authentication";',
      'import { operations } from "./endpoints";',
      'import { errors } from "./errors";',
      'import { events } from "./events";',
      'import { limits } from "./limits";',
      'import { purpose } from "./purpose";',
      'import { resources } from "./resources";',
      'import { states } from "./states";',
      'import { versioning } from "./versioning";',
      "",
      "export const contract = defineContract({ purpose, resources, states, operations, securitySchemes, events, errors, limits, versioning });",
      "",
    ].join("\n"),
  );
  return { dir, result, code, source: source.document, index };
}

/** Imports `document`, loads the contract it wrote and builds the app from it. */
export async function importCase(
  name: string,
  document: Document,
  extraFiles: Readonly<Record<string, string>> = {},
): Promise<ImportedCase> {
  const { dir, result, code, source, index } = await writeCase(name, document, extraFiles);
  const { contract } = (await import(index)) as { contract: Contract };
  const app = createApp(contract, {
    engine: BUILD_ENGINE,
    jsonSchema: toJSONSchema,
    xml: XML_CODEC,
  });
  return {
    dir,
    result,
    findings: result.findings,
    code,
    contract,
    app,
    source,
    served: async () =>
      (await (await app.request("https://fixture.test/_service/openapi.json")).json()) as Json,
  };
}

/** The findings' lines, `kind pointer: message`, for readable assertions. */
export const findingLines = (c: ImportedCase) =>
  c.findings.map((f) => `${f.kind} ${f.pointer}: ${f.message}`);

export type { Json };

export const info = { title: "FIXTURE importer case", version: "1.0.0" };
export const doc31 = (rest: Json): Json => ({ openapi: "3.1.0", info, ...rest });
export const doc30 = (rest: Json): Json => ({ openapi: "3.0.3", info, ...rest });

/** One operation at /fixture taking `schema` as a JSON body, answering it back as is. */
export const bodyCase = (schema: unknown, components: Json = {}, openapi = "3.1.0"): Json => ({
  openapi,
  info,
  paths: {
    "/fixture": {
      post: {
        operationId: "fixturePost",
        requestBody: { required: true, content: { "application/json": { schema } } },
        responses: { "204": { description: "FIXTURE" } },
      },
    },
  },
  components,
});

/** One GET operation at `path` reading `parameters`, in a 3.1 document with `rest` beside. */
export const getCase = (path: string, parameters: unknown[], rest: Json = {}): Json => ({
  ...doc31(rest),
  paths: {
    [path]: {
      get: {
        operationId: "fixtureGet",
        parameters,
        responses: { "200": { description: "FIXTURE" } },
      },
    },
  },
});

/** Posts a JSON body to the case's /fixture: the status tells whether the schema took it. */
export async function accepts(c: ImportedCase, body: unknown): Promise<boolean> {
  const res = await c.app.request("https://fixture.test/fixture", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (![422, 501].includes(res.status)) throw new Error(`unexpected ${res.status}`);
  return res.status === 501;
}

/** An error answer at `status` whose body is the API's own JSON of `schema`. */
export const jsonError = (status: string, schema: Json): Json => ({
  [status]: { description: `FIXTURE error ${status}`, content: { "application/json": { schema } } },
});

/** A POST whose JSON body requires one non-empty string `member`, created 201, with `errors` too. */
export const postOfOneMember = (member: string, errors: Json): Json => ({
  post: {
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: [member],
            properties: { [member]: { type: "string", minLength: 1 } },
          },
        },
      },
    },
    responses: { "201": { description: "FIXTURE created" }, ...errors },
  },
});

/** The document the case's app serves, typed as far as the tests read it. */
export const served = async (c: ImportedCase) =>
  (await c.served()) as Json & {
    paths: Record<
      string,
      Record<string, Json & { parameters: Json[]; responses: Record<string, Json> }>
    >;
    components: { schemas: Record<string, Json>; responses?: Record<string, Json> };
    webhooks?: Record<string, Record<string, Json>>;
  };
