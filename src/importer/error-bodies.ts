/**
 * Error answers as a document declares them. A 4xx or 5xx answer is an error type of part 7
 * when its body is an RFC 9457 problem document (`application/problem+json`, or Appendix B's
 * `application/problem+xml`), when it is
 * JSON of the API's own shape (`{ "code": 400, "message": "…" }`), or when it has none;
 * anything else (HTML, text) stays a plain response. For a body of its own, where the
 * platform's facts go is read from its members' names and types, so that a failure the
 * platform detects can be answered in it (src/contract-language/contract.ts, `ErrorBody`).
 */
import type {
  ErrorFact,
  JsonValue,
  ViolationFact,
  ViolationList,
} from "../contract-language/contract";
import { follow, isObject, type Json } from "./source";

const PROBLEM_JSON = "application/problem+json";
/** RFC 9457 Appendix B's XML form of a problem. */
const PROBLEM_XML = "application/problem+xml";
const isJson = (type: string) => /^application\/(?:[\w.+-]+\+)?json$/i.test(type);
const isXml = (type: string) => /^(?:application|text)\/(?:[\w.+-]+\+)?xml$/i.test(type);

/** How an error answer's body is declared: RFC 9457's, the API's own JSON, or none. */
export type ErrorMedia =
  | { readonly kind: "problem"; readonly mediaType: typeof PROBLEM_JSON | typeof PROBLEM_XML }
  | { readonly kind: "json"; readonly mediaType: string }
  | { readonly kind: "none" };

/**
 * The error media of a response's content types; undefined when it is no error type's
 * (a body that is neither JSON nor XML). An XML alternative beside JSON is the same answer
 * in another media type, as problem+xml is RFC 9457's (Appendix B).
 */
export function errorMediaOf(types: readonly string[]): ErrorMedia | undefined {
  if (types.length === 0) return { kind: "none" };
  const plain = types.map((t) => t.split(";")[0]?.trim().toLowerCase() ?? t);
  if (!plain.every((t) => isJson(t) || isXml(t))) return undefined;
  if (plain.includes(PROBLEM_JSON)) return { kind: "problem", mediaType: PROBLEM_JSON };
  const json = types.find((t) => isJson(t.split(";")[0]?.trim() ?? t));
  if (json) return { kind: "json", mediaType: json.split(";")[0]?.trim() ?? json };
  // A problem only in XML: the same members, in Appendix B's form.
  return plain.includes(PROBLEM_XML) ? { kind: "problem", mediaType: PROBLEM_XML } : undefined;
}

/** The names of an object of messages by field (Jira's `errors`, many frameworks'). */
const FIELD_NAMES = ["errors", "fielderrors", "validationerrors"];

/** The member names (lower case, `_` and `-` dropped) that carry each fact, most telling first. */
const NAMES: Readonly<Record<ErrorFact, readonly string[]>> = {
  status: ["status", "statuscode", "httpstatus", "code"],
  statusString: ["status", "statuscode", "httpstatus"],
  title: ["title", "error", "reason"],
  detail: ["detail", "message", "errordescription", "errormessage", "description", "msg"],
  type: ["type"],
  requestId: ["requestid", "traceid", "correlationid"],
  timestamp: ["timestamp", "time", "datetime"],
  retryAfter: ["retryafter", "retryafterseconds"],
  allowedMethods: ["allow", "allowed", "allowedmethods"],
  supportedVersions: ["supportedversions", "versions"],
  errors: ["errors", "violations", "invalidparams", "details"],
  fieldErrors: FIELD_NAMES,
  fieldErrorLists: FIELD_NAMES,
};

/** The JSON type a fact needs of the member that carries it. */
/** A list of strings that holds the detail as its one item where no member holds it alone. */
const LIST_NAMES = ["errormessages", "messages", "errors"];

const TYPES: Readonly<Record<ErrorFact, string>> = {
  status: "integer",
  statusString: "string",
  title: "string",
  detail: "string",
  type: "string",
  requestId: "string",
  timestamp: "string",
  retryAfter: "integer",
  allowedMethods: "array",
  supportedVersions: "array",
  errors: "array",
  fieldErrors: "object",
  fieldErrorLists: "object",
};

/** The members of each violation the platform reports. */
const VIOLATION = ["in", "pointer", "detail"];

const normalised = (name: string) => name.toLowerCase().replace(/[-_]/g, "");
const escapeToken = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");

/** The members an object schema requires. */
const requiredOf = (node: unknown): Set<string> =>
  new Set(isObject(node) && Array.isArray(node.required) ? node.required.map(String) : []);

/** The members of an object schema (through `$ref`s), with their schemas followed. */
function membersOf(document: Json, schema: unknown, pointer: string): [string, Json][] {
  const { node } = follow(document, schema, pointer);
  if (!isObject(node) || !isObject(node.properties)) return [];
  return Object.entries(node.properties).flatMap(([name, raw]) => {
    const { node: member } = follow(document, raw, pointer);
    return isObject(member) ? [[name, member] as [string, Json]] : [];
  });
}

/** Whether a member's schema takes the value a fact has. */
function takes(document: Json, member: Json, fact: ErrorFact, pointer: string): boolean {
  const types = Array.isArray(member.type) ? member.type : [member.type];
  const wanted = TYPES[fact];
  if (!types.includes(wanted) && !(wanted === "integer" && types.includes("number"))) return false;
  if (fact === "fieldErrors" || fact === "fieldErrorLists")
    return messagesByField(document, member, pointer) === fact;
  if (fact === "allowedMethods" || fact === "supportedVersions")
    return plainOf(document, member.items, pointer, "string") !== undefined;
  // A string status is its digits only where nothing narrows it (JSON:API's `"422"`), and
  // not where the document's example is a word (JSend's `"fail"`).
  if (fact === "statusString")
    return (
      member.format === undefined &&
      !("enum" in member) &&
      !("const" in member) &&
      [member.example, ...(Array.isArray(member.examples) ? member.examples : [])].every(
        (e) => e === undefined || /^\d{3}$/.test(String(e)),
      )
    );
  if (fact === "timestamp" && member.format !== undefined && member.format !== "date-time")
    return false;
  if (fact !== "errors") return !("enum" in member) && !("const" in member);
  // The platform's violations are { in, pointer, detail }: items that require other members
  // (a `field`, a `message`), or allow no member but their own (Jira's bulk results), cannot
  // hold them.
  const found = isObject(member.items) ? follow(document, member.items, pointer).node : {};
  const items = isObject(found) ? found : {};
  const required = Array.isArray(items.required) ? items.required : [];
  const own = isObject(items.properties) ? items.properties : {};
  return (
    required.every((name) => VIOLATION.includes(String(name))) &&
    (items.type === undefined || items.type === "object") &&
    (items.additionalProperties !== false || VIOLATION.every((name) => name in own))
  );
}

/** A schema of JSON type `type` (through `$ref`s), and nothing narrower. */
function plainOf(document: Json, raw: unknown, pointer: string, type: string): Json | undefined {
  const { node } = follow(document, raw, pointer);
  if (!isObject(node) || "enum" in node || "const" in node) return undefined;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  return types.includes(type) ? node : undefined;
}

/**
 * Whether an object member is one of messages by field, the platform's violations written
 * `{ field: message }` or `{ field: [messages] }`: any name (no member it requires or
 * declares), each value a string, or a list of strings.
 */
function messagesByField(
  document: Json,
  member: Json,
  pointer: string,
): "fieldErrors" | "fieldErrorLists" | undefined {
  const declared = isObject(member.properties) ? Object.keys(member.properties) : [];
  const required = Array.isArray(member.required) ? member.required : [];
  if (declared.length > 0 || required.length > 0) return undefined;
  const values = member.additionalProperties;
  if (plainOf(document, values, pointer, "string")) return "fieldErrors";
  const list = plainOf(document, values, pointer, "array");
  return list && plainOf(document, list.items, pointer, "string") ? "fieldErrorLists" : undefined;
}

/** One level of an object's members: its pointer prefix, its members, those it requires. */
type Level = [prefix: string, members: [string, Json][], required: Set<string>];

/** An object's members, and those of each object member one level down: where facts are looked for. */
function levelsOf(document: Json, schema: unknown, pointer: string): Level[] {
  const top = follow(document, schema, pointer).node;
  const levels: Level[] = [["", membersOf(document, schema, pointer), requiredOf(top)]];
  for (const [name, member] of levels[0]?.[1] ?? [])
    if (member.type === "object")
      levels.push([
        `/${escapeToken(name)}`,
        membersOf(document, member, pointer),
        requiredOf(member),
      ]);
  return levels;
}

export interface Carried {
  /** Where each fact goes, as a JSON Pointer into the body. */
  readonly carries: Partial<Record<ErrorFact, string>>;
  /** The values the document fixes (a required `const` or one-value `enum`), by pointer. */
  readonly fixed: Readonly<Record<string, JsonValue>>;
  /** The violations as a list of the API's own items, where it has one. */
  readonly violations?: ViolationList;
  /** The body's top-level members the platform fills (so a handler need not). */
  readonly members: ReadonlySet<string>;
  /**
   * Whether the platform's answer, a JSON object of the members above, can be this body: not
   * where it is declared as a list or a string (SendGrid's, some of Jira's), nor where it is
   * only a composition (`oneOf`, `anyOf`, `allOf`: GitHub's 422 is one of two shapes, each
   * requiring members the platform does not have), whose members are not read here.
   */
  readonly object: boolean;
}

/**
 * Where the platform's facts go in an error body of the API's own shape: a top-level member
 * named for the fact (`message` for the detail, `code` for an integer status, `errors`…),
 * or one level down (`{ "error": { "message": "…" } }`), of a type that can hold it.
 */
export function carriesOf(document: Json, schema: unknown, pointer: string): Carried {
  const carries: Partial<Record<ErrorFact, string>> = {};
  const members = new Set<string>();
  const levels = levelsOf(document, schema, pointer);
  for (const fact of Object.keys(NAMES) as ErrorFact[]) {
    for (const [prefix, level, required] of levels) {
      const free = NAMES[fact]
        .map((wanted) =>
          level.find(
            ([name, member]) =>
              normalised(name) === wanted && takes(document, member, fact, pointer),
          ),
        )
        .filter((match) => match !== undefined)
        .filter(([name]) => !Object.values(carries).includes(`${prefix}/${escapeToken(name)}`));
      // A member the body requires first (Bitbucket's `error: { message (required), detail }`
      // takes the detail in its message), so the object the platform writes is whole.
      const found = free.find(([name]) => required.has(name)) ?? free[0];
      if (!found) continue;
      carries[fact] = `${prefix}/${escapeToken(found[0])}`;
      break;
    }
  }
  const fixed = fixedOf(document, levels, pointer, new Set(Object.values(carries)));
  // The violations in the API's own item shape, where no member takes the platform's.
  const violations =
    carries.errors || carries.fieldErrors || carries.fieldErrorLists
      ? undefined
      : violationListOf(document, levels, new Set(Object.values(carries)), pointer);
  // Nor does the platform write an object one level down that lacks a member it requires.
  for (const [prefix, level, required] of levels.slice(1)) {
    const inside = (Object.keys(carries) as ErrorFact[]).filter((fact) =>
      carries[fact]?.startsWith(`${prefix}/`),
    );
    const filled = new Set([
      ...inside.map((fact) => carries[fact]),
      ...Object.keys(fixed),
      ...(violations ? [violations.at] : []),
    ]);
    if (
      level.length > 0 &&
      [...required].some((name) => !filled.has(`${prefix}/${escapeToken(name)}`))
    )
      for (const fact of inside) delete carries[fact];
  }
  // Without a member for the detail, a list of messages takes it as its one item
  // (`{ errorMessages: [detail] }`, as Jira's and Atlassian's errors are written).
  const list =
    carries.detail === undefined
      ? levels[0]?.[1].find(([name, member]) => {
          if (!LIST_NAMES.includes(normalised(name)) || member.type !== "array") return false;
          const items = isObject(member.items) ? follow(document, member.items, pointer).node : {};
          return isObject(items) && items.type === "string";
        })
      : undefined;
  if (list) {
    carries.detail = `/${escapeToken(list[0])}/0`;
    members.add(list[0]);
  }
  // A top-level member is filled when it carries a fact, or is an object whose every
  // required member does.
  // An object of messages by field stays a handler's to give too (its own rules' messages).
  const byField = [carries.fieldErrors, carries.fieldErrorLists];
  const at = new Set([
    ...Object.values(carries).filter((p) => !byField.includes(p)),
    ...Object.keys(fixed),
    ...(violations ? [violations.at] : []),
  ]);
  for (const [name, member] of levels[0]?.[1] ?? []) {
    const own = `/${escapeToken(name)}`;
    if (at.has(own)) members.add(name);
    else if (member.type === "object" && [...at].some((p) => p.startsWith(`${own}/`))) {
      const required = Array.isArray(member.required) ? member.required.map(String) : [];
      if (required.every((inner) => at.has(`${own}/${escapeToken(inner)}`))) members.add(name);
    }
  }
  const { node } = follow(document, schema, pointer);
  const type = isObject(node) ? node.type : undefined;
  const composed =
    isObject(node) &&
    !isObject(node.properties) &&
    ["oneOf", "anyOf", "allOf"].some((k) => k in node);
  const object =
    !composed &&
    (type === undefined || type === "object" || (Array.isArray(type) && type.includes("object")));
  return { carries, fixed, ...(violations ? { violations } : {}), members, object };
}

/** The member names (normalised) that hold each fact of one violation, most telling first. */
const ITEM_NAMES: Readonly<
  Record<ViolationFact | "status" | "statusString" | "title", readonly string[]>
> = {
  message: [
    "message",
    "msg",
    "detail",
    "issue",
    "description",
    "reason",
    "errormessage",
    "text",
    "error",
  ],
  pointer: ["pointer", "jsonpointer"],
  path: [
    "field",
    "path",
    "loc",
    "location",
    "property",
    "propertypath",
    "fieldname",
    "param",
    "parameter",
    "name",
    "target",
    "attribute",
  ],
  segments: ["loc", "location", "path", "field", "segments"],
  stringSegments: ["loc", "location", "path", "field", "segments"],
  in: ["in", "part"],
  member: [],
  keyword: [
    "type",
    "code",
    "kind",
    "keyword",
    "rule",
    "validator",
    "constraint",
    "errortype",
    "errorcode",
    "reason",
  ],
  status: ["status", "statuscode"],
  statusString: ["status", "statuscode"],
  title: ["title"],
};

/** The JSON type each item fact needs; `segments` a list of strings and integers. */
const ITEM_TYPES: Readonly<Record<ViolationFact | "status" | "statusString" | "title", string>> = {
  message: "string",
  pointer: "string",
  path: "string",
  segments: "array",
  stringSegments: "array",
  in: "string",
  member: "string",
  keyword: "string",
  status: "integer",
  statusString: "string",
  title: "string",
};

/**
 * Whether a list's items take a location's segments: strings and integers both (`integers`:
 * an index written as a number), or strings only (an index written as its digits).
 */
function segmentItems(document: Json, raw: unknown, pointer: string, integers: boolean): boolean {
  const { node } = follow(document, raw, pointer);
  if (!isObject(node)) return false;
  const branches = Array.isArray(node.anyOf)
    ? node.anyOf
    : Array.isArray(node.oneOf)
      ? node.oneOf
      : [node];
  const types = branches.flatMap((branch) => {
    const b = follow(document, branch, pointer).node;
    return isObject(b) ? (Array.isArray(b.type) ? b.type : [b.type]) : [undefined];
  });
  if (!types.every((t) => t === "string" || t === "integer")) return false;
  return integers ? types.includes("integer") : types.every((t) => t === "string");
}

/** Whether an item member can hold one fact of a violation. */
function itemTakes(
  document: Json,
  member: Json,
  fact: keyof typeof ITEM_TYPES,
  pointer: string,
): boolean {
  const types = Array.isArray(member.type) ? member.type : [member.type];
  if (!types.includes(ITEM_TYPES[fact])) return false;
  if ("enum" in member || "const" in member) return false;
  if (fact === "segments" || fact === "stringSegments")
    return segmentItems(document, member.items, pointer, fact === "segments");
  return !(fact === "statusString" && member.format !== undefined);
}

/**
 * How one item of a list holds a violation: each member the item requires must take a
 * fact of it (or be fixed), and one at least must take its sentence; looked for in the item's
 * members and one object down (JSON:API's `source.pointer`).
 */
function itemShape(
  document: Json,
  items: Json,
  pointer: string,
): Pick<ViolationList, "item" | "fixed"> | undefined {
  const item: Partial<Record<keyof typeof ITEM_TYPES, string>> = {};
  const fixed: Record<string, JsonValue> = {};
  const taken = new Set<string>();
  const levels = levelsOf(document, items, pointer);
  for (const fact of Object.keys(ITEM_NAMES) as (keyof typeof ITEM_TYPES)[])
    for (const [prefix, level] of levels) {
      if (item[fact] !== undefined) break;
      for (const wanted of ITEM_NAMES[fact]) {
        const found = level.find(
          ([name, member]) =>
            normalised(name) === wanted &&
            !taken.has(`${prefix}/${escapeToken(name)}`) &&
            itemTakes(document, member, fact, pointer),
        );
        if (!found) continue;
        item[fact] = `${prefix}/${escapeToken(found[0])}`;
        taken.add(item[fact] as string);
        break;
      }
    }
  if (item.message === undefined) return undefined;
  for (const [prefix, level, required] of levels)
    for (const [name, member] of level) {
      const at = `${prefix}/${escapeToken(name)}`;
      const one = oneValue(member);
      if (!taken.has(at) && one !== undefined && required.has(name)) fixed[at] = one.value;
      const covered =
        taken.has(at) ||
        at in fixed ||
        (member.type === "object" && [...taken].some((p) => p.startsWith(`${at}/`)));
      if (required.has(name) && !covered) return undefined;
    }
  return { item, ...(Object.keys(fixed).length > 0 ? { fixed } : {}) };
}

/**
 * The violations as a list of the API's own items (`{ detail: [{ loc, msg, type }] }`,
 * `{ errors: [{ status, detail, source: { pointer } }] }`, `{ error: { details: [{ field,
 * issue }] } }`): an array member, at the top or one object down, whose items can each hold
 * one violation whole.
 */
function violationListOf(
  document: Json,
  levels: readonly Level[],
  carried: ReadonlySet<string | undefined>,
  pointer: string,
): ViolationList | undefined {
  for (const [prefix, level] of levels)
    for (const [name, member] of level) {
      const at = `${prefix}/${escapeToken(name)}`;
      if (carried.has(at) || member.type !== "array") continue;
      const items = follow(document, member.items, pointer).node;
      if (!isObject(items) || (items.type !== undefined && items.type !== "object")) continue;
      const shape = itemShape(document, items, pointer);
      if (shape) return { at, ...shape };
    }
  return undefined;
}

/** The one value a schema allows (`const`, or an `enum` of one), if it allows one only. */
function oneValue(schema: Json): { value: JsonValue } | undefined {
  if ("const" in schema) return { value: schema.const as JsonValue };
  return Array.isArray(schema.enum) && schema.enum.length === 1
    ? { value: schema.enum[0] as JsonValue }
    : undefined;
}

/** The required members whose schema allows one value only, at the top and one object down. */
function fixedOf(
  document: Json,
  levels: readonly Level[],
  pointer: string,
  carried: ReadonlySet<string | undefined>,
): Record<string, JsonValue> {
  const fixed: Record<string, JsonValue> = {};
  for (const [prefix, level, required] of levels)
    for (const [name, member] of level) {
      if (carried.has(`${prefix}/${escapeToken(name)}`)) continue;
      const one = required.has(name)
        ? oneValue(follow(document, member, pointer).node as Json)
        : undefined;
      if (one) fixed[`${prefix}/${escapeToken(name)}`] = one.value;
    }
  return fixed;
}
