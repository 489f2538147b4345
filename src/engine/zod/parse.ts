/**
 * Parsing with zod's core, so any zod v4 schema works (classic or `zod/mini`) and the
 * engine ships neither API.
 */
import { $ZodAsyncError, type $ZodIssue, safeParse, safeParseAsync } from "zod/v4/core";
import type { Schema } from "../../contract-language/contract";

type SafeParseResult =
  | { readonly success: true; readonly data: unknown }
  | { readonly success: false; readonly error: { readonly issues: readonly $ZodIssue[] } };

/**
 * Parses with zod's core, falling back to the async path only for schemas that need it.
 * A synchronous schema's result comes back synchronously: no promise on the hot path.
 */
export function parseWith(
  schema: Schema,
  value: unknown,
): SafeParseResult | Promise<SafeParseResult> {
  try {
    return safeParse(schema, value);
  } catch (error) {
    if (error instanceof $ZodAsyncError) return safeParseAsync(schema, value);
    throw error;
  }
}
