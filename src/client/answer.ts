/**
 * Reading an answer: its status, the declared media type its body came in and the body as
 * that media type is read (JSON parsed; text and XML as text; anything else as bytes), and,
 * when the client is asked to, checking it against the contract: a declared status with a
 * declared media type and a body its schema accepts, one of part 7's error types, or one
 * of the platform's problem documents (RFC 9457) whose `status` is the answer's.
 */
import { globalRegistry } from "zod/v4/core";
import type { Contract, Operation, ResponseDeclaration } from "../contract-language/contract";
import { mediaSchema } from "./request";
import { membersOf } from "./serialise";

/** What a call answers, before its type is the operation's. */
interface ReadAnswer {
  readonly status: number;
  readonly mediaType: string | undefined;
  readonly body: unknown;
  readonly headers: Headers;
}

/** An answer the contract does not allow, found when the client checks answers. */
export class AnswerMismatchError extends Error {
  override readonly name = "AnswerMismatchError";
  constructor(
    readonly operationId: string,
    readonly answer: ReadAnswer,
    reason: string,
  ) {
    super(`${operationId}: the ${answer.status} answer does not match the contract: ${reason}`);
  }
}

const isJson = (essence: string) => essence === "application/json" || essence.endsWith("+json");
const isText = (essence: string) =>
  essence.startsWith("text/") ||
  essence === "application/xml" ||
  essence.endsWith("+xml") ||
  essence === "application/x-www-form-urlencoded";

/** The answer, its body read as its media type says; the declared spelling of the media type where one matches. */
export async function readAnswer(op: Operation, response: Response): Promise<ReadAnswer> {
  const type = response.headers.get("content-type");
  const essence = type === null ? undefined : (type.split(";")[0] ?? "").trim().toLowerCase();
  const declared = Object.values(op.responses).flatMap((r) => Object.keys(r?.content ?? {}));
  const mediaType =
    essence === undefined
      ? undefined
      : (declared.find((d) => d.toLowerCase() === essence) ?? essence);
  let body: unknown;
  if (essence === undefined) await response.body?.cancel();
  else if (isJson(essence)) {
    const text = await response.text();
    body = text === "" ? undefined : JSON.parse(text);
  } else if (isText(essence)) body = await response.text();
  else body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, mediaType, body, headers: response.headers };
}

/** The declared response of a status: exact first, then its range (`4XX`), then `default`. */
function declaredResponse(op: Operation, status: number): ResponseDeclaration | undefined {
  const responses = op.responses as Readonly<Record<string, ResponseDeclaration | undefined>>;
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

interface StandardResult {
  readonly issues?: readonly { readonly path?: readonly unknown[]; readonly message: string }[];
}
interface Standard {
  readonly "~standard": { validate(value: unknown): StandardResult | Promise<StandardResult> };
}

/** Whether a member of an object schema is marked `writeOnly`: an answer may leave it out (OpenAPI 3.1 §4.8.24.1). */
function writeOnlyAt(schema: unknown, path: readonly unknown[]): boolean {
  let node = schema;
  for (const key of path.slice(0, -1)) node = membersOf(node)[String(key)];
  const member = membersOf(node)[String(path.at(-1))] as { _zod?: unknown } | undefined;
  if (member?._zod === undefined) return false;
  return globalRegistry.get(member as never)?.writeOnly === true;
}

/** Why a body does not satisfy its schema, or undefined when it does (a missing write-only member aside). */
async function schemaMismatch(schema: unknown, body: unknown): Promise<string | undefined> {
  const standard = schema as Partial<Standard>;
  if (standard["~standard"] === undefined) return undefined;
  const result = await standard["~standard"].validate(body);
  const issues = (result.issues ?? []).filter(
    (issue) => !(issue.path && body === Object(body) && writeOnlyAt(schema, issue.path)),
  );
  if (issues.length === 0) return undefined;
  return issues
    .slice(0, 3)
    .map((issue) => `${(issue.path ?? []).map(String).join("/") || "(body)"}: ${issue.message}`)
    .join("; ");
}

/**
 * Whether a problem document's `type` is one of the platform's: hosted under its problems
 * path (as answers.ts types them, `/_service/problems/<slug>`) or `about:blank` (RFC 9457
 * §4.2.1), so a body of some other problem type is still held to what the status declares.
 */
function isPlatformProblemType(body: unknown): boolean {
  const type = (body as { type?: unknown } | undefined)?.type;
  return (
    type === undefined ||
    type === "about:blank" ||
    (typeof type === "string" && type.startsWith("/_service/problems/"))
  );
}

/** Why an answer does not satisfy operation `op`'s declaration, or undefined when it does. */
export async function answerMismatch(
  contract: Contract,
  op: Operation,
  answer: ReadAnswer,
): Promise<string | undefined> {
  const declared = declaredResponse(op, answer.status);
  // A range or `default` does not cover the platform's own problems: the served document
  // lists those by exact status (RFC 9457 documents), so one in a media type the range does
  // not declare is read as the platform's, below.
  const exact = Object.hasOwn(op.responses, String(answer.status));
  // At an exact status declared in other media types only, the platform's failure is merged
  // into the served document's response (a 422 beside the operation's own JSON error): a
  // problem of the platform's types, never another body in a media type not declared.
  const platformProblem =
    answer.mediaType === "application/problem+json" &&
    !Object.hasOwn(declared?.content ?? {}, answer.mediaType) &&
    (!exact || isPlatformProblemType(answer.body));
  if (declared !== undefined && !platformProblem) {
    const content = declared.content;
    if (content === undefined || Object.keys(content).length === 0)
      return answer.body === undefined || answer.body === ""
        ? undefined
        : "a body was not declared";
    const key = Object.keys(content).find((type) => type === answer.mediaType);
    if (key === undefined) return `media type ${answer.mediaType ?? "(none)"} is not declared`;
    if (!isJson(key.toLowerCase())) return undefined;
    return schemaMismatch(mediaSchema(content[key]), answer.body);
  }
  // Part 7: an error type of its own body has its own media type.
  const own = Object.values(contract.errors).some(
    (type) => type.status === answer.status && type.body?.mediaType === answer.mediaType,
  );
  if (own) return undefined;
  if (answer.mediaType !== "application/problem+json")
    return "an undeclared status that is not a problem document (RFC 9457)";
  const problem = answer.body as { status?: unknown; type?: unknown; title?: unknown } | undefined;
  if (problem?.status !== answer.status || typeof problem.title !== "string")
    return "a problem document whose status is not the answer's (RFC 9457 §3.1.3)";
  return undefined;
}
