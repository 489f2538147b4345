/**
 * Structured logging: one JSON object per line, which Workers Logs indexes field by field.
 * Requests themselves are not logged here; Workers observability records each invocation.
 */
type Level = "info" | "warn" | "error";

export function log(
  level: Level,
  message: string,
  fields: Readonly<Record<string, unknown>>,
): void {
  console[level](JSON.stringify({ level, message, ...fields }));
}

/** An error as log fields: all of it, for the operator's eyes only. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, stack: error.stack };
  }
  return { name: typeof error, message: String(error) };
}
