/**
 * The `examples` setting's answer for an operation without a handler: an answer it declares,
 * made from the contract's own examples, chosen as Stoplight Prism lets a request choose it
 * (`Prefer`, RFC 7240). The answer is what the handler's result would be: the steps after
 * it check it against the declaration (`checkAnswer`; a body the build checked is not
 * checked again: `Exchange.vetted`) and write it in the media type `Accept` chose
 * (`respond`). Only examples the build found to match their schema are served
 * (src/mocks/examples/make-book.ts). Which answer, which body and which seed:
 * src/mocks/README.md, "Answers from examples".
 */
import { isMediaDeclaration, type ResponseDeclaration } from "../../contract-language/contract";
import { bodyKind } from "../../contract-language/media-types";
import type { BookAnswer, BookMedia, ExampleBook, JsonSchema } from "../../engine/example-book";
import type { ExamplesFeature, Exchange, Outcome } from "../../engine/mock-seam";
import { statusPlan } from "../../engine/operations/responses";
import type { Refusal } from "../../engine/refusal";
import { acceptable } from "../../platform/accept";
import { statusProblem } from "../../platform/problem";
import { generateValue } from "./generate";
import { preferenceApplied, readPreferences } from "./prefer";
import { Random } from "./random";
import { canonical } from "./validate";

/** What the answer is: a declared response under `key`, or a part 7 error type. */
type Chosen =
  | { readonly kind: "answer"; readonly key: string; readonly status: number }
  | { readonly kind: "error"; readonly name: string; readonly status: number };

/** An operation's answers in the book, by response key. */
type Answers = Readonly<Record<string, BookAnswer>>;

const SUCCESS = /^2\d\d$/;
const STATUS = /^[2-5]\d\d$/;

/**
 * The answer the request's `code` preference names, where the operation can give it. A part
 * 7 error type is documented under its own status, so it is an explicit code and wins over a
 * range that holds it (OpenAPI 3.1 §4.8.16.2).
 */
function preferredStatus(x: Exchange, answers: Answers, code: string): Chosen | undefined {
  if (!STATUS.test(code)) return undefined;
  const status = Number(code);
  if (Object.hasOwn(answers, code)) return { kind: "answer", key: code, status };
  for (const [name, declared] of x.model.responses.errors)
    if (declared.status === status) return { kind: "error", name, status };
  const range = `${code[0]}XX`;
  if (Object.hasOwn(answers, range)) return { kind: "answer", key: range, status };
  return undefined;
}

/** The answer given without a `code` preference. */
function defaultStatus(answers: Answers): Chosen | undefined {
  const keys = Object.keys(answers);
  const exact = (pattern: RegExp) =>
    keys.filter((key) => pattern.test(key)).sort((a, b) => Number(a) - Number(b))[0];
  const success = exact(SUCCESS);
  if (success) return { kind: "answer", key: success, status: Number(success) };
  for (const key of ["2XX", "default"])
    if (Object.hasOwn(answers, key)) return { kind: "answer", key, status: 200 };
  const any = exact(STATUS);
  return any ? { kind: "answer", key: any, status: Number(any) } : undefined;
}

/** The seed of `dynamic=true`: the request's method, path, query and body. */
function requestSeed(x: Exchange): string {
  const url = new URL(x.c.req.url);
  const body = x.input?.body;
  return [x.c.req.method, url.pathname, url.search, body ? canonical(body.value) : ""].join("\n");
}

/**
 * Header fields from a generated object of their values (OpenAPI's `simple` style). A
 * document may declare CORS fields among its answers' headers (Twilio's does); made up, they
 * would grant any origin what the deployment never allowed, so they are left to the
 * deployment's CORS setting (Fetch Standard, §3.2.3).
 */
function headerText(value: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (value === null || typeof value !== "object") return headers;
  for (const [name, field] of Object.entries(value)) {
    if (field === undefined || field === null) continue;
    if (name.toLowerCase().startsWith("access-control-")) continue;
    headers[name] = Array.isArray(field)
      ? field.map(String).join(",")
      : typeof field === "object"
        ? Object.entries(field).flat().map(String).join(",")
        : String(field);
  }
  return headers;
}

/** A body as its media type is written: bytes for a binary one. */
function asKind(type: string, value: unknown): unknown {
  if (bodyKind(type) !== "binary" || value instanceof Uint8Array) return value;
  return typeof value === "string" ? new TextEncoder().encode(value) : new Uint8Array(0);
}

interface Body {
  readonly ok: boolean;
  readonly value?: unknown;
  readonly applied?: readonly [string, string];
  /** The value is one the build held to the answer's schema (`BookMedia.unvetted`). */
  readonly vetted?: boolean;
}

/** Bytes for a binary answer with no example: 32 (fewer where the schema allows fewer), seeded. */
function madeBytes(schema: JsonSchema, seed: string): Uint8Array {
  const bounds = typeof schema === "object" ? schema : {};
  const most = typeof bounds.maxLength === "number" ? bounds.maxLength : 32;
  const least = typeof bounds.minLength === "number" ? bounds.minLength : 0;
  const random = Random.from(seed);
  const bytes = new Uint8Array(Math.max(least, Math.min(32, most)));
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random.next() * 256);
  return bytes;
}

/** The body of one media type, as the preferences choose it. */
function bodyOf(
  x: Exchange,
  book: ExampleBook,
  at: { key: string; type: string; media: BookMedia },
  preferences: ReadonlyMap<string, string>,
): Body {
  const { key, type, media } = at;
  const generate = (schema: JsonSchema, seed: string, fresh: boolean) =>
    generateValue(schema, { root: book, direction: "response", seed, fresh });
  if (preferences.get("dynamic")?.toLowerCase() === "true" && bodyKind(type) !== "binary") {
    const made = generate(media.schema, requestSeed(x), true);
    if (made.ok) return { ok: true, value: made.value, applied: ["dynamic", "true"] };
  }
  const responses = x.model.operation.responses as Readonly<Record<string, ResponseDeclaration>>;
  const declared = responses[key]?.content?.[type];
  const examples = declared && isMediaDeclaration(declared) ? declared.examples : {};
  const vetted = media.unvetted !== true;
  const asked = preferences.get("example");
  if (asked !== undefined && media.examples.includes(asked))
    return { ok: true, value: examples?.[asked]?.value, applied: ["example", asked], vetted };
  const first = media.examples[0];
  if (first !== undefined) return { ok: true, value: examples?.[first]?.value, vetted };
  // A binary answer without an example: bytes made for it, the same for every request.
  if (media.madeBytes)
    return { ok: true, value: madeBytes(media.schema, `${x.model.id} ${key} ${type}`) };
  // No value could be made (the build said so), or the build made it.
  if (media.unmade) return { ok: false };
  if ("made" in media) return { ok: true, value: media.made, vetted };
  const made = generate(media.schema, `${x.model.id} ${key} ${type}`, false);
  return made.ok ? { ok: true, value: made.value } : { ok: false };
}

/**
 * RFC 9110 §15.6.4: the deployment cannot read the example book the build made (its static
 * assets or their binding are missing; logged once, src/platform/documents.ts). Said without
 * naming what, as the documents' 503 is.
 */
const BOOK_UNAVAILABLE: Refusal = {
  kind: undefined,
  problem: statusProblem(
    503,
    "This deployment cannot answer from the contract's examples now; try again after it is fixed.",
  ),
};

/**
 * Sets the exchange's result from the contract's examples, or answers 501 (`unanswered`)
 * where no answer can be made (a stale build, an answer the build could make no value for).
 */
async function answerFromExamples(x: Exchange, unanswered: () => Outcome): Promise<Outcome> {
  const { model } = x;
  const book = await model.exampleBook(x.c.env);
  // RFC 9110 §15.6.4: the deployment cannot read what the build made (logged once).
  if (!book) return BOOK_UNAVAILABLE;
  const answers = book.operations[model.id]?.[model.shapeIndex];
  if (!answers) return unanswered();
  const preferences = readPreferences(x.c.req.header("prefer") ?? null);
  const code = preferences.get("code");
  const preferred = code === undefined ? undefined : preferredStatus(x, answers, code);
  const chosen = preferred ?? defaultStatus(answers);
  if (!chosen) return unanswered();
  const applied: (readonly [string, string])[] = preferred ? [["code", code as string]] : [];
  const seed = `${model.id} ${chosen.kind === "answer" ? chosen.key : chosen.name}`;
  if (chosen.kind === "error") {
    const schema = book.errors[chosen.name];
    const made = schema === undefined ? undefined : generateValue(schema, { root: book, seed });
    const members = made?.ok ? (made.value as Record<string, unknown>) : {};
    x.result = { error: chosen.name, members };
  } else {
    const types = statusPlan(model.responses, chosen.status)?.types ?? [];
    const type = types.length === 0 ? undefined : (acceptable(x.accept, types) ?? types[0]);
    const answer = answers[chosen.key];
    const media = type === undefined ? undefined : answer?.content[type];
    const body =
      type && media ? bodyOf(x, book, { key: chosen.key, type, media }, preferences) : undefined;
    if (body && !body.ok) return unanswered();
    if (body?.applied) applied.push(body.applied);
    if (body?.vetted) x.vetted = true;
    const made =
      answer && "madeHeaders" in answer
        ? { ok: true as const, value: answer.madeHeaders }
        : answer?.headers
          ? generateValue(answer.headers, { root: book, seed })
          : undefined;
    x.result = {
      status: chosen.status,
      ...(type === undefined ? {} : { mediaType: type, body: asKind(type, body?.value) }),
      ...(made?.ok ? { headers: headerText(made.value) } : {}),
    };
  }
  // RFC 7240 §2: an answer a preference may change varies on Prefer; §3: what was honoured.
  const vary = [x.headers?.vary, model.responses.vary ? "accept" : undefined, "prefer"]
    .filter((field) => field !== undefined)
    .join(", ");
  x.headers = {
    ...x.headers,
    vary,
    ...(applied.length > 0 ? { "preference-applied": preferenceApplied(applied) } : {}),
  };
  return undefined;
}

/**
 * The serving engine's examples feature (src/engine/features.ts): given to a Worker only while an
 * operation has no handler, so one whose every operation has a handler ships none of this
 * module nor the value generator (src/mocks/examples/).
 */
export const EXAMPLES_FEATURE = { answer: answerFromExamples } as const satisfies ExamplesFeature;
