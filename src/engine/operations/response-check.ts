/**
 * Does a handler's answer match what its operation declares? The reason it does not, in
 * words for the operator's log; never sent to the client.
 */
import type { ResponseDeclaration } from "../../domain/contract";
import type { AnyResult } from "../../domain/handlers";
import { describeIssue, jsonPointer } from "../validation/issues";
import { parseWith } from "../validation/parse";

/** Why a result does not match its declaration; undefined when it does. */
export async function responseMismatch(
  declared: ResponseDeclaration | undefined,
  result: AnyResult,
  mediaType: string | undefined,
): Promise<string | undefined> {
  if (!declared) return `status ${result.status} is not declared`;
  if (declared.content) {
    const schema = mediaType === undefined ? undefined : declared.content[mediaType];
    if (!schema)
      return `media type ${String(mediaType)} is not declared for status ${result.status}`;
    const parsed = await parseWith(schema, result.body);
    if (!parsed.success) {
      return `body does not match its schema: ${parsed.error.issues
        .map((issue) => `${jsonPointer(issue.path)} ${describeIssue(issue)}`)
        .join("; ")}`;
    }
  } else if (result.body !== undefined) {
    return `status ${result.status} declares no body`;
  }
  if (declared.headers) {
    const parsed = await parseWith(declared.headers, { ...result.headers });
    if (!parsed.success) return "headers do not match their schema";
  }
  return undefined;
}
