/**
 * BENCH FIXTURE generator: a deterministic OpenAPI 3.1 document of any size, of the shapes
 * real documents have, for the benchmark's scale section (test/tools/bench/README.md, "At
 * scale"). Nothing here is the service's interface; every name says FIXTURE.
 *
 * The document has `resources` collections of five operations each (list with query
 * parameters, create with a JSON body, get, update and delete by a path parameter; every
 * third one nested under another's item path, two path parameters), one simple validated
 * `POST` (the shape of the bench's POST, so it can be compared with a one-operation Worker),
 * and `schemas` component schemas in four tiers: each tier's objects refer to the tier
 * below (`$ref` reuse, at most four deep, no cycles), with nested inline objects, arrays,
 * enums, nullable and optional members, `allOf` and `oneOf` with a discriminator. Shared
 * parameters and responses are components too, and four security schemes (an API key in a
 * header, another in the query, HTTP basic, a bearer token) are spread over the operations,
 * some of which are public. The same options always give the same document, byte for byte.
 */

type Json = Record<string, unknown>;

export interface GeneratedOptions {
  /** Operations in all, the simple POST included (a multiple of 5, plus 1 is exact). */
  readonly operations: number;
  /** Component schemas in all. */
  readonly schemas: number;
  readonly seed?: number;
  /**
   * The "expandable" pattern of payment and commerce APIs: each object schema also has four
   * members that are either an id or the object it names, `anyOf: [string, $ref]`, the `$ref`
   * to any schema of the document, tiers above included, so the schemas refer to each other
   * in cycles through unions (and through an extension that repeats the choice).
   */
  readonly expandable?: boolean;
  /**
   * About this many characters of prose in each operation's description, and a tenth of it in
   * each schema member's: what makes real documents of this many operations 10 MB and more
   * (GitHub's, Microsoft Graph's), which the schemas alone never are.
   */
  readonly prose?: number;
}

const LOREM =
  "FIXTURE prose: what a real document says of an operation or a member, its use, its limits, the errors it answers with and an example of a call. ";

/** `chars` characters of FIXTURE prose, varied by `salt` so no two are the same. */
function prose(chars: number, salt: string): string {
  const words = `${salt} ${LOREM}`;
  return words.repeat(Math.max(1, Math.ceil(chars / words.length))).slice(0, chars);
}

/** Adds `chars` of prose to each operation, and a tenth of it to each schema member. */
function withProse(document: Json, chars: number): Json {
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>))
    for (const [method, operation] of Object.entries(item))
      if (method !== "parameters" && typeof operation === "object" && operation !== null)
        (operation as Json).description = prose(chars, `${method} ${path}`);
  const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
  for (const [name, schema] of Object.entries(schemas))
    for (const [member, property] of Object.entries(
      (schema.properties as Record<string, Json> | undefined) ?? {},
    ))
      if (typeof property === "object" && property !== null && !("$ref" in property))
        property.description = prose(Math.ceil(chars / 10), `${name}.${member}`);
  return document;
}

/**
 * The generated FIXTURE documents the corpus run (`--generated`) and the bench's scale
 * section import beside real ones: each a shape real documents have at the size that once
 * broke the importer. Nothing here is the service's interface.
 *
 * - `expandable-421`: 421 operations and 561 schemas whose objects each have four
 *   "expandable" members (`anyOf` an id and the objects it names, repeated in an extension),
 *   so the schemas refer to each other in cycles through unions: the pattern that ran the
 *   importer out of a 1 GiB heap. The bound it holds the importer to: memory proportional to
 *   the document (a reference to a served schema stays a reference), under a 1 GiB cap.
 * - `large-1201`: 1,201 operations and 1,000 schemas (issue 42's scale).
 * - `prose-13mb-1201`: the same with the prose of a real document of that size (13 MB, as
 *   GitHub's REST document is): the import's time at that size is held to 3 minutes.
 */
export const GENERATED_DOCUMENTS: readonly (GeneratedOptions & { readonly name: string })[] = [
  { name: "expandable-421", operations: 421, schemas: 561, expandable: true },
  { name: "large-1201", operations: 1201, schemas: 1000, expandable: false },
  // The size of GitHub's REST document (13 MB, 1,223 operations): prose makes the bytes.
  { name: "prose-13mb-1201", operations: 1201, schemas: 1000, expandable: false, prose: 7000 },
];

/** The simple validated operation: what the one-operation Worker is compared on. */
export const SIMPLE_OPERATION = {
  method: "post",
  path: "/fixture-simple-items",
  operationId: "fixtureCreateSimpleItem",
} as const;

/** mulberry32: a small deterministic PRNG, so the document is the same on every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, width = 4) => String(n).padStart(width, "0");
const schemaName = (i: number) => `FixtureSchema${pad(i)}`;
const ref = (i: number) => ({ $ref: `#/components/schemas/${schemaName(i)}` });

/** Four tiers of schema indices: tier 3 (the resources' own) refers to 2, 2 to 1, 1 to 0. */
function tiers(schemas: number, resources: number): [number, number][] {
  const top = Math.min(schemas, resources * 2);
  const rest = schemas - top;
  const second = top + Math.floor(rest * 0.3);
  const first = second + Math.floor(rest * 0.3);
  return [
    [first, schemas],
    [second, first],
    [top, second],
    [0, top],
  ];
}

/** One member of an object schema: a scalar of some kind, or a reference to the tier below. */
function member(next: () => number, below: [number, number] | undefined, k: number): Json {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T;
  const lower = () => (below ? ref(below[0] + Math.floor(next() * (below[1] - below[0]))) : {});
  const kinds = below ? 12 : 9;
  switch (Math.floor(next() * kinds)) {
    case 0:
      return { type: "string", minLength: 1, maxLength: 40 + k };
    case 1:
      return { type: "string", format: pick(["date-time", "email", "uuid", "date", "uri"]) };
    case 2:
      return { type: "integer", minimum: 0, maximum: 1000 * (k + 1) };
    case 3:
      return { type: ["number", "null"], minimum: 0 };
    case 4:
      return { type: "boolean", default: false };
    case 5:
      return {
        type: "string",
        enum: ["fixture-alpha", "fixture-beta", "fixture-gamma", "fixture-delta"].slice(
          0,
          2 + (k % 3),
        ),
      };
    case 6:
      return { type: "array", items: { type: "string", maxLength: 20 }, maxItems: 10 };
    case 7:
      return {
        type: "object",
        description: "A FIXTURE nested object.",
        required: ["label"],
        properties: {
          label: { type: "string", maxLength: 30 },
          count: { type: "integer", minimum: 0 },
          flags: { type: "array", items: { type: "boolean" } },
        },
      };
    case 8:
      return { type: "string", pattern: "^fx-[a-z0-9]{1,12}$" };
    case 9:
    case 10:
      return lower();
    default:
      return { type: "array", items: lower(), maxItems: 5 };
  }
}

/** The pattern of a FIXTURE resource's id, and of the path parameter naming its items. */
const THING_ID = "^fx-[a-z0-9]{1,12}$";

/**
 * An object schema of 3 to 8 members, about half of them required. `prefix` names them: an
 * `allOf` extension takes its own, so the two objects it joins never give one member two types.
 */
function objectSchema(
  next: () => number,
  below: [number, number] | undefined,
  id: boolean,
  prefix = "fixtureField",
): Json {
  // The id its items' path parameter (`FixtureThingId`) names them by, of the same pattern:
  // an API's ids are the ones its paths take.
  const properties: Json = id ? { id: { type: "string", pattern: THING_ID, readOnly: true } } : {};
  const required: string[] = id ? ["id"] : [];
  const count = 3 + Math.floor(next() * 6);
  for (let k = 0; k < count; k++) {
    const name = `${prefix}${k}`;
    properties[name] = member(next, below, k);
    if (next() < 0.5) required.push(name);
  }
  return { type: "object", description: "A FIXTURE object.", required, properties };
}

/** The component schemas, tier by tier; some of the lower tiers are compositions. */
function componentSchemas(
  next: () => number,
  schemas: number,
  resources: number,
  expandable = false,
): Json {
  const out: Json = {};
  const bands = tiers(schemas, resources);
  bands.forEach(([from, to], tier) => {
    const below = bands[tier - 1];
    for (let i = from; i < to; i++) {
      const own = tier === 3 && i < resources;
      let schema = objectSchema(next, below, own);
      if (expandable) schema = withExpandable(next, schema, schemas);
      if (below && tier < 3 && i % 17 === 0)
        schema = {
          allOf: [lowerRef(next, below), objectSchema(next, undefined, false, `fixtureExtra${i}x`)],
        };
      else if (below && tier < 3 && i % 23 === 0) schema = oneOfSchema(next, below);
      out[schemaName(i)] = schema;
    }
  });
  return out;
}

/**
 * `schema` with four members that are an id or the object it names, as payment APIs write
 * them: `anyOf` a string and one or two references (or a reference alone), the choice
 * repeated in an extension (`x-fixture-expansion`), half of them to a few hub schemas and
 * half to any schema of the document, so the references run in cycles through unions.
 */
function withExpandable(next: () => number, schema: Json, schemas: number): Json {
  const properties = { ...(schema.properties as Json) };
  const target = () =>
    ref(next() < 0.5 ? Math.floor(next() * Math.min(30, schemas)) : Math.floor(next() * schemas));
  for (let k = 0; k < 4; k++) {
    const refs = next() < 0.3 ? [target(), target()] : [target()];
    properties[`fixtureExpandable${k}`] = {
      anyOf: k === 3 ? refs.slice(0, 1) : [{ type: "string", maxLength: 5000 }, ...refs],
      description: "A FIXTURE id, or the object it names when expanded.",
      "x-fixture-expansion": { oneOf: refs },
    };
  }
  return { ...schema, properties };
}

const lowerRef = (next: () => number, below: [number, number]) =>
  ref(below[0] + Math.floor(next() * (below[1] - below[0])));

/** A `oneOf` of two objects told apart by a `kind` member (a discriminator). */
function oneOfSchema(next: () => number, below: [number, number]): Json {
  const variant = (kind: string) => ({
    type: "object",
    required: ["kind"],
    properties: { kind: { const: kind }, detail: lowerRef(next, below) },
  });
  return {
    oneOf: [variant("fixture-one"), variant("fixture-two")],
    discriminator: { propertyName: "kind" },
  };
}

/** The shared components: parameters, responses and security schemes. */
function sharedComponents(): Json {
  return {
    parameters: {
      FixtureLimit: {
        name: "limit",
        in: "query",
        schema: { type: "integer", minimum: 1, maximum: 100, default: 20 },
      },
      FixtureCursor: { name: "cursor", in: "query", schema: { type: "string", maxLength: 64 } },
      FixtureThingId: {
        name: "thingId",
        in: "path",
        required: true,
        schema: { type: "string", pattern: THING_ID },
      },
    },
    responses: {
      FixtureNotFound: {
        description: "No such FIXTURE thing.",
        content: {
          "application/problem+json": { schema: { $ref: "#/components/schemas/FixtureProblem" } },
        },
      },
    },
    securitySchemes: {
      fixtureKey: { type: "apiKey", in: "header", name: "X-Fixture-Key" },
      fixtureQueryKey: { type: "apiKey", in: "query", name: "fixture_key" },
      fixtureBasic: { type: "http", scheme: "basic" },
      fixtureBearer: { type: "http", scheme: "bearer" },
    },
  };
}

/** Who may call the i-th operation: the document's default, another scheme, or anyone. */
function securityOf(i: number): Json {
  const which = i % 10;
  if (which === 0) return { security: [] };
  if (which <= 2) return { security: [{ fixtureBasic: [] }] };
  if (which <= 4) return { security: [{ fixtureBearer: [] }, { fixtureQueryKey: [] }] };
  return {};
}

/** The five operations of the r-th collection (its own schema and its create schema). */
function collection(r: number, resources: number): [string, Json][] {
  const name = `fixture-r${pad(r, 3)}`;
  const parent = r % 3 === 2 ? `fixture-r${pad(r - 1, 3)}` : undefined;
  const base = parent ? `/${parent}/things/{parentId}/${name}` : `/${name}`;
  const parentParameter = parent
    ? [{ name: "parentId", in: "path", required: true, schema: { type: "string", maxLength: 32 } }]
    : [];
  const own = ref(r);
  const create = ref(resources + r);
  const id = (op: string) => `fixture${op}R${pad(r, 3)}`;
  const notFound = { "404": { $ref: "#/components/responses/FixtureNotFound" } };
  const json = (schema: Json) => ({ content: { "application/json": { schema } } });
  const at = (k: number) => securityOf(r * 5 + k);
  const list = {
    operationId: id("List"),
    tags: [name],
    parameters: [
      { $ref: "#/components/parameters/FixtureLimit" },
      { $ref: "#/components/parameters/FixtureCursor" },
      {
        name: "status",
        in: "query",
        schema: {
          type: "array",
          items: { type: "string", enum: ["fixture-open", "fixture-shut"] },
        },
      },
      { name: "sort", in: "query", schema: { type: "string", enum: ["asc", "desc"] } },
    ],
    responses: {
      "200": {
        description: "A page.",
        ...json({
          type: "object",
          required: ["items"],
          properties: { items: { type: "array", items: own }, next: { type: ["string", "null"] } },
        }),
      },
    },
    ...at(0),
  };
  const body = { required: true, ...json(create) };
  return [
    [
      base,
      {
        parameters: parentParameter,
        get: list,
        post: {
          operationId: id("Create"),
          tags: [name],
          requestBody: body,
          responses: { "201": { description: "Created.", ...json(own) } },
          ...at(1),
        },
      },
    ],
    [
      `${base}/{thingId}`,
      {
        parameters: [...parentParameter, { $ref: "#/components/parameters/FixtureThingId" }],
        get: {
          operationId: id("Get"),
          tags: [name],
          responses: { "200": { description: "The thing.", ...json(own) }, ...notFound },
          ...at(2),
        },
        patch: {
          operationId: id("Update"),
          tags: [name],
          requestBody: body,
          responses: { "200": { description: "Changed.", ...json(own) }, ...notFound },
          ...at(3),
        },
        delete: {
          operationId: id("Delete"),
          tags: [name],
          responses: { "204": { description: "Deleted." }, ...notFound },
          ...at(4),
        },
      },
    ],
  ];
}

/** The simple validated POST: the bench POST's body (shared.ts), public, 201 on success. */
function simpleOperation(): Json {
  const item = {
    type: "object",
    required: ["name", "size"],
    properties: {
      name: { type: "string", minLength: 1, maxLength: 40 },
      size: { type: "integer", minimum: 1 },
    },
  };
  return {
    post: {
      operationId: SIMPLE_OPERATION.operationId,
      security: [],
      requestBody: { required: true, content: { "application/json": { schema: item } } },
      responses: {
        "201": {
          description: "Created.",
          content: {
            "application/json": {
              schema: { ...item, properties: { ...item.properties, id: { type: "string" } } },
            },
          },
        },
      },
    },
  };
}

/** The whole document (an OpenAPI 3.1 object, ready for JSON.stringify). */
export function generateDocument(options: GeneratedOptions): Json {
  const next = random(options.seed ?? 23);
  const resources = Math.max(1, Math.ceil((options.operations - 1) / 5));
  const items: [string, Json][] = [];
  for (let r = 0; r < resources; r++) items.push(...collection(r, resources));
  // The last collection gives up operations until the count is exact.
  let extra = resources * 5 + 1 - options.operations;
  for (const [, item] of [...items].reverse())
    for (const method of ["delete", "patch", "get", "post"])
      if (extra > 0 && method in item) {
        delete item[method];
        extra--;
      }
  const paths: Json = { [SIMPLE_OPERATION.path]: simpleOperation() };
  for (const [path, item] of items)
    if (Object.keys(item).some((key) => key !== "parameters")) paths[path] = item;
  const schemas = componentSchemas(next, options.schemas - 1, resources, options.expandable);
  schemas.FixtureProblem = {
    type: "object",
    description: "A FIXTURE problem document (RFC 9457).",
    properties: {
      type: { type: "string" },
      title: { type: "string" },
      status: { type: "integer" },
      detail: { type: "string" },
    },
  };
  const document: Json = {
    openapi: "3.1.0",
    info: {
      title: `FIXTURE generated API (${options.operations} operations, ${options.schemas} schemas${options.expandable ? ", expandable members in cycles" : ""})`,
      version: "1.0.0",
      description:
        "BENCH FIXTURE made by test/tools/bench/generate-document.ts for the benchmark's scale section. Not an interface of anything.",
    },
    security: [{ fixtureKey: [] }],
    paths,
    components: { schemas, ...sharedComponents() },
  };
  return options.prose ? withProse(document, options.prose) : document;
}
