/**
 * Answers held to a served document with Ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect):
 * a validator independent of both the Worker's own checks (zod) and @cfworker/json-schema,
 * which test/tools/conformance/documented.ts uses by default. Node only: Ajv compiles each
 * schema with `new Function`, which workerd forbids. Used by the property-based walk
 * (test/service/walk.slow.test.ts) and the scenario walk (test/service/scenario.slow.test.ts).
 */
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { SchemaCheck } from "./conformance/documented";

type Json = Record<string, unknown>;

/**
 * Ajv's warnings, but for formats it does not know: OpenAPI lets a document name its own
 * (`date-time-rfc-2822`, `http-method`), which assert nothing (JSON Schema 2020-12 §7.2).
 */
const logger = {
  log: console.log,
  warn: (...args: unknown[]) => {
    if (!String(args[0]).startsWith("unknown format")) console.warn(...args);
  },
  error: console.error,
};

/** Ajv over the document's own schemas: `pointer` names a schema in it (`#/paths/…`). */
export function ajvCheck(document: Json): SchemaCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true, logger });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: "walk://document" });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return (pointer, value) => {
    let validate = cache.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `walk://document${pointer}` });
      cache.set(pointer, validate);
    }
    return validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "invalid"}`);
  };
}
