/**
 * Does a handler's answer match what its operation declares? The reason it does not, in
 * words for the operator's log; never sent to the client.
 */
import type { Schema } from "../../contract-language/contract";
import { describeIssue, jsonPointer } from "../zod/issues";
import { parseWith } from "../zod/parse";
import type { DeclaredError, StatusPlan } from "./responses";

async function schemaMismatch(schema: Schema, value: unknown, what: string) {
  const parsed = await parseWith(schema, value);
  if (parsed.success) return undefined;
  return `${what} does not match its schema: ${parsed.error.issues
    .map((issue) => `${jsonPointer(issue.path)} ${describeIssue(issue)}`)
    .join("; ")}`;
}

/**
 * Why an answer of `status` does not match its declaration; undefined when it does. A body
 * the build already held to its schema (`vetted`: an example served as it is) is not parsed
 * again: the same check, on the same value, gives the same answer on every request.
 */
export async function responseMismatch(
  declared: StatusPlan | undefined,
  answer: {
    readonly status: number;
    readonly body?: unknown;
    readonly headers?: Readonly<Record<string, string>>;
  },
  mediaType: string | undefined,
  vetted = false,
): Promise<string | undefined> {
  if (!declared) return `status ${answer.status} is not declared`;
  if (declared.types.length > 0) {
    const media = mediaType === undefined ? undefined : declared.media.get(mediaType);
    if (!media)
      return `media type ${String(mediaType)} is not declared for status ${answer.status}`;
    const mismatch = vetted ? undefined : await schemaMismatch(media.schema, answer.body, "body");
    if (mismatch) return mismatch;
  } else if (answer.body !== undefined) {
    return `status ${answer.status} declares no body`;
  }
  if (declared.headers) {
    const parsed = await parseWith(declared.headers, { ...answer.headers });
    if (!parsed.success) return "headers do not match their schema";
  }
  return undefined;
}

/** Why an answer of a part 7 error type does not match it; undefined when it does. */
export async function errorMismatch(
  name: string,
  declared: DeclaredError | undefined,
  members: Readonly<Record<string, unknown>> | undefined,
): Promise<string | undefined> {
  if (!declared) return `error type ${name} is not declared for this operation`;
  for (const [member, schema] of Object.entries(declared.members)) {
    const mismatch = await schemaMismatch(schema, members?.[member], `member ${member}`);
    if (mismatch) return mismatch;
  }
  const extra = Object.keys(members ?? {}).filter((member) => !(member in declared.members));
  return extra.length > 0 ? `members ${extra.join(", ")} are not declared` : undefined;
}
