/**
 * Clients generated from the served OpenAPI documents, as a caller's toolchain makes them
 * (part of `npm run test:openapi`): openapi-typescript's types with openapi-fetch, and
 * @hey-api/openapi-ts's SDK. Each is generated into test/artifacts/openapi/clients/<name>/
 * beside a program that calls every operation of the document through it (written from the
 * document, with no cast and no narrowing by hand), and the whole is type-checked with
 * `tsc --strict --noUncheckedIndexedAccess`. Each call's success body must be typed (not
 * `unknown`) wherever the document gives it a JSON schema.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { TSC } from "../../src/importer/stage";

const run = promisify(execFile);
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

type Json = Readonly<Record<string, unknown>>;
const objectOf = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};

/** Whether an operation's first 2xx answer has a JSON body with a schema that says something. */
function typedSuccess(operation: Json): boolean {
  const [, success] =
    Object.entries(objectOf(operation.responses)).find(([status]) => /^2\d\d$/.test(status)) ?? [];
  const schema = objectOf(objectOf(objectOf(objectOf(success).content)["application/json"]).schema);
  return typeof schema.$ref === "string" || typeof schema.type === "string";
}

/** A program that calls each operation of `document` with openapi-fetch, typed by openapi-typescript's `paths`. */
function openapiFetchProgram(document: Json): string {
  const lines = [
    'import createClient, { type MaybeOptionalInit } from "openapi-fetch";',
    'import type { paths } from "./schema";',
    "",
    "/** True exactly when T is `unknown`: a body the generator could not type. */",
    "type Untyped<T> = unknown extends T ? true : false;",
    'const client = createClient<paths>({ baseUrl: "https://api.example.test" });',
    "",
  ];
  let i = 0;
  for (const [path, item] of Object.entries(objectOf(document.paths)))
    for (const method of METHODS) {
      const operation = objectOf(objectOf(item)[method]);
      if (Object.keys(operation).length === 0) continue;
      const p = JSON.stringify(path);
      lines.push(
        `export async function call${i}(init: MaybeOptionalInit<paths[${p}], "${method}">) {`,
        `  const { data, error, response } = await client.${method.toUpperCase()}(${p}, init);`,
        ...(typedSuccess(operation)
          ? ["  const typed: Untyped<NonNullable<typeof data>> = false;", "  void typed;"]
          : []),
        "  return { data, error, status: response.status };",
        "}",
        "",
      );
      i += 1;
    }
  return lines.join("\n");
}

/** The operation ids whose success body the document types, as hey-api names their functions. */
function typedOperations(document: Json): Set<string> {
  const ids = new Set<string>();
  for (const item of Object.values(objectOf(document.paths)))
    for (const method of METHODS) {
      const operation = objectOf(objectOf(item)[method]);
      if (typeof operation.operationId === "string" && typedSuccess(operation))
        ids.add(comparable(operation.operationId));
    }
  return ids;
}

/** An operation id or a function name, compared without case or punctuation (`_service.health` is `serviceHealth`). */
const comparable = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** A program that calls each function of hey-api's SDK with its own options type. */
function heyApiProgram(sdkFunctions: readonly string[], typed: ReadonlySet<string>): string {
  return [
    'import * as sdk from "./hey/sdk.gen";',
    "",
    "/** True exactly when T is `unknown`: a body the generator could not type. */",
    "type Untyped<T> = unknown extends T ? true : false;",
    ...sdkFunctions.flatMap((name) => [
      `export async function call_${name}(options: Parameters<typeof sdk.${name}>[0]) {`,
      `  const { data } = await sdk.${name}(options);`,
      ...(typed.has(comparable(name))
        ? ["  const typed: Untyped<NonNullable<typeof data>> = false;", "  void typed;"]
        : []),
      "  return data;",
      "}",
    ]),
    "",
  ].join("\n");
}

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    lib: ["ES2023", "DOM", "DOM.Iterable"],
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    // Only the packages' own declarations are skipped: the generated code is .ts, checked whole.
    skipLibCheck: true,
    types: [],
    verbatimModuleSyntax: true,
    isolatedModules: true,
  },
  include: ["**/*.ts"],
};

/** The names the hey-api SDK exports as functions (`export const name = <…>(options…) =>`). */
function sdkFunctions(dir: string): string[] {
  const code = readFileSync(join(dir, "hey/sdk.gen.ts"), "utf8");
  return [...code.matchAll(/^export const (\w+) = </gm)].map((match) => match[1] ?? "");
}

/** Generates both clients of one document and type-checks them with their programs: one verdict line each. */
export async function generatedClients(
  name: string,
  file: string,
  document: Json,
): Promise<[ok: boolean, text: string][]> {
  const dir = resolve("test/artifacts/openapi/clients", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  symlinkSync(resolve("node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
  const verdicts: [boolean, string][] = [];
  const tsc = async (label: string, program: string, programFile: string) => {
    writeFileSync(join(dir, programFile), program);
    try {
      await run(TSC[0], [...TSC.slice(1), "-p", dir], { maxBuffer: 16 * 1024 * 1024 });
      verdicts.push([true, `${label}, ${name}: generated, and every operation's call type-checks`]);
    } catch (error) {
      const out = String((error as { stdout?: string }).stdout ?? error).split("\n");
      verdicts.push([false, `${label}, ${name}: ${out.slice(0, 8).join(" | ")}`]);
    }
    rmSync(join(dir, programFile));
  };
  await run("npx", ["openapi-typescript", file, "-o", join(dir, "schema.ts")]);
  await tsc("openapi-typescript + openapi-fetch", openapiFetchProgram(document), "calls.ts");
  rmSync(join(dir, "schema.ts"));
  await run("npx", ["openapi-ts", "-i", file, "-o", join(dir, "hey")]);
  await tsc(
    "@hey-api/openapi-ts",
    heyApiProgram(sdkFunctions(dir), typedOperations(document)),
    "calls.ts",
  );
  return verdicts;
}
