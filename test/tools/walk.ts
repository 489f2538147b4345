/**
 * A property-based walk over a served document (issue 44 §5), as an outside tester walks
 * it: for every path of the document and every method, requests fast-check draws with a
 * fixed seed (path values, query values, JSON bodies), each answer held to the document the
 * same app serves. The classes it looks for, each counted:
 *
 * - `405`: a method the path does not declare answered other than 405 (RFC 9110 §15.5.6);
 * - `allow`: an Allow other than the one the path's OPTIONS documents;
 * - `documented`: an answer whose status, media type, headers or body the document does not
 *   give for the operation;
 * - `write-only`: an answer holding a member its documented schema marks writeOnly;
 * - `5xx`: a server error the document does not give (501 and 503 are documented ones).
 *
 * Used by test/service/walk.slow.test.ts (Node, Ajv: FIXTURE and imported documents, the
 * 501 and examples settings) and test/service/walk.sandbox.test.ts (workerd: the sandbox).
 */
import fc from "fast-check";
import { documented, documentedFailures, type SchemaCheck } from "./conformance/documented";

type Json = Record<string, unknown>;
export const BASE = "https://walk.test";
const SEED = 44;
const RUNS = 4;
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export const CLASSES = ["405", "allow", "documented", "write-only", "5xx"] as const;
export type Class = (typeof CLASSES)[number];

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** A schema of the document, through its `$ref`s (scenario.ts too). */
export function deref(document: Json, node: unknown, depth = 0): unknown {
  if (!isObject(node) || typeof node.$ref !== "string" || depth > 32) return node;
  const target = node.$ref
    .slice(2)
    .split("/")
    .map((t) => decodeURIComponent(t).replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>((at, token) => (isObject(at) ? at[token] : undefined), document);
  return deref(document, target, depth + 1);
}

/** The members of `value` its documented schema marks writeOnly, at any depth (scenario.ts too). */
export function writeOnlyHeld(
  document: Json,
  schema: unknown,
  value: unknown,
  at = "",
  depth = 0,
): string[] {
  const node = deref(document, schema);
  if (!isObject(node) || value === null || typeof value !== "object" || depth > 16) return [];
  if (Array.isArray(value))
    return value.flatMap((item, i) =>
      writeOnlyHeld(document, node.items, item, `${at}/${i}`, depth + 1),
    );
  const branches = [node, ...((node.allOf ?? []) as unknown[])].map((b) => deref(document, b));
  const found: string[] = [];
  for (const [name, member] of Object.entries(value as Json))
    for (const branch of branches) {
      const declared =
        isObject(branch) && isObject(branch.properties) ? branch.properties[name] : undefined;
      if (declared === undefined) continue;
      const own = deref(document, declared);
      if (isObject(own) && own.writeOnly === true) found.push(`${at}/${name}`);
      else found.push(...writeOnlyHeld(document, declared, member, `${at}/${name}`, depth + 1));
    }
  return found;
}

/** The Allow a path's OPTIONS documents (its `const`). */
function documentedAllow(item: Json): string | undefined {
  const text = JSON.stringify((item.options as Json | undefined)?.responses ?? {});
  return /"Allow":\{[^}]*"const":"([^"]+)"/.exec(text)?.[1];
}

export interface Walked {
  readonly requests: number;
  readonly found: Record<Class, string[]>;
}

/**
 * Walks every path and method of the app's document, `RUNS` requests each, holding each
 * answer to the document with `validator` (@cfworker/json-schema where none is given: it
 * runs in workerd).
 */
export async function walk(
  fetch: (request: Request) => Promise<Response>,
  validator?: (document: Json) => SchemaCheck,
): Promise<Walked> {
  const document = (await (
    await fetch(new Request(`${BASE}/_service/openapi.json`))
  ).json()) as Json;
  const doc = documented(document, validator);
  const found = Object.fromEntries(CLASSES.map((c) => [c, [] as string[]])) as Record<
    Class,
    string[]
  >;
  let requests = 0;
  const sample = fc.sample(
    fc.record({
      segment: fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
      query: fc.dictionary(
        fc.stringMatching(/^[a-z]{1,6}$/),
        fc.stringMatching(/^[A-Za-z0-9]{0,8}$/),
        {
          maxKeys: 2,
        },
      ),
      body: fc.jsonValue({ maxDepth: 3 }),
    }),
    { seed: SEED, numRuns: RUNS },
  );
  for (const [template, raw] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    const item = raw;
    const allow = documentedAllow(item);
    for (const method of METHODS)
      for (const drawn of sample) {
        const path = template.replace(/\{[^}]+\}/g, () => encodeURIComponent(drawn.segment));
        const search = new URLSearchParams(drawn.query).toString();
        const url = `${BASE}${path}${search ? `?${search}` : ""}`;
        const withBody = ["POST", "PUT", "PATCH"].includes(method);
        const response = await fetch(
          new Request(url, {
            method,
            ...(withBody
              ? {
                  headers: { "content-type": "application/json" },
                  body: JSON.stringify(drawn.body),
                }
              : {}),
          }),
        );
        requests += 1;
        const text = await response.text();
        const label = `${method} ${url.slice(BASE.length)} → ${response.status}`;
        const declared = method.toLowerCase() in item || (method === "HEAD" && "get" in item);
        if (!declared) {
          if (response.status !== 405 && response.status !== 404) found["405"].push(label);
          if (response.status === 405 && allow && response.headers.get("allow") !== allow)
            found.allow.push(
              `${label}: Allow ${response.headers.get("allow")}, documented ${allow}`,
            );
          continue;
        }
        if (
          method === "OPTIONS" &&
          allow &&
          response.status === 204 &&
          response.headers.get("allow") !== allow
        )
          found.allow.push(`${label}: Allow ${response.headers.get("allow")}, documented ${allow}`);
        if (method === "HEAD") continue;
        const failures = documentedFailures(doc, template, method, response, text);
        for (const failure of failures) found.documented.push(`${label}: ${failure}`);
        if (response.status >= 500 && failures.length > 0) found["5xx"].push(label);
        const operation = item[method.toLowerCase()] as Json;
        const answer = deref(
          document,
          (operation.responses as Json | undefined)?.[String(response.status)],
        );
        const media =
          isObject(answer) && isObject(answer.content)
            ? answer.content["application/json"]
            : undefined;
        if (isObject(media) && /json/.test(response.headers.get("content-type") ?? "")) {
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            continue;
          }
          for (const member of writeOnlyHeld(document, media.schema, value))
            found["write-only"].push(`${label}: ${member}`);
        }
      }
  }
  return { requests, found };
}
