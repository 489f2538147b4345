/**
 * What a deployment must provide for a contract to be enforced: the Worker secrets part 5
 * names and the rate limiting bindings part 8 names. wrangler.toml and `.dev.vars.example`
 * are checked against this by the test suite, so they list exactly what is declared.
 */

import {
  type Contract,
  introspectionOf,
  jwtOf,
  secretNames,
} from "../../src/contract-language/contract";
import { DESTINATIONS_VAR } from "../../src/engine/events/destinations";
import { DEAD_LETTER_QUEUE, EVENTS_QUEUE } from "../../src/engine/events/emit";
import { UNHANDLED_VAR } from "../../src/engine/operations/unhandled-setting";
import { needsSandbox } from "../../src/mocks/sandbox/place";
import { SANDBOX_BINDING, SANDBOX_CLASS } from "../../src/mocks/sandbox/records";
import { CORS_VARS, DEFAULT_MAX_AGE, MAX_MAX_AGE } from "../../src/platform/cors";

/** A Worker secret the contract names, and how documentation writes its value. */
export interface RequiredSecret {
  readonly name: string;
  /** The spec's placeholder: a value is never written down (`<ACCESS_TOKEN>` for bearer tokens). */
  readonly placeholder: "<API_KEY>" | "<ACCESS_TOKEN>" | "<ACCESS_KEYS>";
  /** The security scheme that accepts it, and what it holds, for people. */
  readonly scheme: string;
  readonly meaning: string;
}

/** The Worker secrets that hold the expected credentials, sorted by name. */
export function requiredSecrets(contract: Contract): RequiredSecret[] {
  const secrets = new Map<string, RequiredSecret>();
  for (const [scheme, declared] of Object.entries(contract.securitySchemes)) {
    if (declared.type === "verified" && declared.accessKeys)
      for (const name of secretNames(declared.accessKeys))
        secrets.set(name, {
          name,
          placeholder: "<ACCESS_KEYS>",
          scheme,
          meaning: `the AWS access keys ${scheme} accepts, one <access key id>:<secret access key> per line`,
        });
    if (!("secret" in declared)) continue;
    const bearer = declared.type === "http" && declared.scheme === "bearer";
    const basic = declared.type === "http" && declared.scheme === "basic";
    const meaning = bearer
      ? `a bearer token ${scheme} accepts`
      : basic
        ? `the user-id:password ${scheme} accepts`
        : `an API key ${scheme} accepts`;
    for (const name of secretNames(declared.secret))
      secrets.set(name, {
        name,
        placeholder: bearer ? "<ACCESS_TOKEN>" : "<API_KEY>",
        scheme,
        meaning,
      });
  }
  return [...secrets.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A setting a JWT scheme names: which key set, issuer and audience the deployment trusts.
 * Not a credential, but like one it differs between deployments and is set outside the
 * repository, so it is a required secret too (see `deploymentBlock`).
 */
export interface RequiredVar {
  readonly name: string;
  readonly kind:
    | "jwksUrl"
    | "issuer"
    | "audience"
    | "introspectionUrl"
    | "clientId"
    | "clientSecret";
  readonly scheme: string;
  readonly meaning: string;
  readonly placeholder:
    | "<JWKS_URL>"
    | "<ISSUER>"
    | "<AUDIENCE>"
    | "<INTROSPECTION_URL>"
    | "<CLIENT_ID>"
    | "<CLIENT_SECRET>";
}

/** The settings part 5's JWT schemes name, sorted by name. */
export function requiredVars(contract: Contract): RequiredVar[] {
  const vars = new Map<string, RequiredVar>();
  for (const [scheme, declared] of Object.entries(contract.securitySchemes)) {
    const introspection = introspectionOf(declared);
    if (introspection) {
      const { endpoint, clientId, clientSecret, audience } = introspection;
      vars.set(endpoint, {
        name: endpoint,
        kind: "introspectionUrl",
        scheme,
        meaning: `the https: URL of the token introspection endpoint (RFC 7662) ${scheme} asks`,
        placeholder: "<INTROSPECTION_URL>",
      });
      vars.set(clientId, {
        name: clientId,
        kind: "clientId",
        scheme,
        meaning: `the client id ${scheme} authenticates to that endpoint with`,
        placeholder: "<CLIENT_ID>",
      });
      vars.set(clientSecret, {
        name: clientSecret,
        kind: "clientSecret",
        scheme,
        meaning: `the client secret ${scheme} authenticates to that endpoint with`,
        placeholder: "<CLIENT_SECRET>",
      });
      if (audience)
        vars.set(audience, {
          name: audience,
          kind: "audience",
          scheme,
          meaning: `the audience (aud) ${scheme}'s tokens must have`,
          placeholder: "<AUDIENCE>",
        });
      continue;
    }
    const jwt = jwtOf(declared);
    if (!jwt) continue;
    const { jwksUrl, issuer, audience } = jwt;
    vars.set(jwksUrl, {
      name: jwksUrl,
      kind: "jwksUrl",
      scheme,
      meaning: `the https: URL of ${scheme}'s key set (or the JWK Set itself, as JSON)`,
      placeholder: "<JWKS_URL>",
    });
    vars.set(issuer, {
      name: issuer,
      kind: "issuer",
      scheme,
      meaning: `the issuer (iss) ${scheme} accepts`,
      placeholder: "<ISSUER>",
    });
    vars.set(audience, {
      name: audience,
      kind: "audience",
      scheme,
      meaning: `the audience (aud) ${scheme} accepts`,
      placeholder: "<AUDIENCE>",
    });
  }
  return [...vars.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Everything a deployment must set outside the repository for part 5 to admit anyone: the
 * credentials and the JWT schemes' settings, sorted by name.
 */
export function requiredSettings(contract: Contract): (RequiredSecret | RequiredVar)[] {
  return [...requiredSecrets(contract), ...requiredVars(contract)].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
}

/** One `[[ratelimits]]` entry of wrangler.toml. */
export interface RateLimitBinding {
  readonly name: string;
  readonly limit: number;
  readonly period: 10 | 60;
}

/** The rate limiting bindings part 8 counts with, sorted by name. */
export function rateLimitBindings(contract: Contract): RateLimitBinding[] {
  const bindings = new Map<string, RateLimitBinding>();
  for (const limit of Object.values(contract.limits)) {
    if (limit.kind !== "rate") continue;
    bindings.set(limit.binding, { name: limit.binding, limit: limit.limit, period: limit.period });
  }
  return [...bindings.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The queues part 6 needs: a producer and consumer of deliveries, and a dead-letter queue. */
export interface EventQueues {
  readonly producer: { readonly binding: string; readonly queue: string };
  readonly deadLetter: { readonly binding: string; readonly queue: string };
  readonly consumer: {
    readonly queue: string;
    readonly max_batch_size: number;
    readonly max_retries: number;
    readonly dead_letter_queue: string;
  };
}

/**
 * Undefined unless part 6 declares events. Queue names derive from the Worker's name. The
 * consumer dead-letters a message itself after the last of Standard Webhooks' seven
 * retries (src/engine/events/deliver.ts); Queues' own `max_retries` is set above that, a
 * backstop that still lands in the dead-letter queue if the consumer cannot.
 */
export function eventQueues(contract: Contract, workerName: string): EventQueues | undefined {
  if (Object.keys(contract.events).length === 0) return undefined;
  const queue = `${workerName}-events`;
  const deadLetter = `${workerName}-events-dead-letter`;
  return {
    producer: { binding: EVENTS_QUEUE, queue },
    deadLetter: { binding: DEAD_LETTER_QUEUE, queue: deadLetter },
    consumer: { queue, max_batch_size: 10, max_retries: 10, dead_letter_queue: deadLetter },
  };
}

/** The sandbox's Durable Object binding, and the migration that makes its class SQLite-backed. */
export interface SandboxStorage {
  readonly binding: { readonly name: string; readonly class_name: string };
  readonly migration: { readonly tag: string; readonly new_sqlite_classes: readonly string[] };
}

/**
 * Undefined unless an operation is placed in the sandbox (src/mocks/sandbox/place.ts). The
 * binding follows the contract, not the deployment's choice of answers: handlers are
 * offered the same store (`context.store`) whatever answers the rest, and a Durable
 * Object class, once deployed, can only be removed by a migration that deletes its data.
 */
export function sandboxStorage(contract: Contract): SandboxStorage | undefined {
  if (!needsSandbox(contract)) return undefined;
  return {
    binding: { name: SANDBOX_BINDING, class_name: SANDBOX_CLASS },
    migration: { tag: "sandbox-v1", new_sqlite_classes: [SANDBOX_CLASS] },
  };
}

export const BLOCK_START = "# --- What the contract needs from a deployment (generated) ---";
export const BLOCK_END = "# --- end of the generated block ---";

/** What a deployment already chose, which a rewrite of the block keeps. */
export interface CurrentDeployment {
  /** Namespace ids of the rate limiting bindings it has, by binding name. */
  readonly namespaceIds?: ReadonlyMap<string, string>;
  /** The `RESPONSE_VALIDATION` platform setting: off, log (the default) or enforce. */
  readonly responseValidation?: string;
  /** Values the deployment already gave the vars the contract names. */
  readonly vars?: Readonly<Record<string, string>>;
  /** wrangler.toml's `name`, which queue names derive from. */
  readonly workerName?: string;
}

/** A var's value as the deployment has it (wrangler.toml may hold a number), else `fallback`. */
function currentVar(current: CurrentDeployment, name: string, fallback: string): string {
  const value = current.vars?.[name];
  return value === undefined ? fallback : String(value);
}

/**
 * The block at the end of wrangler.toml that lists what the contract needs: the platform's
 * vars (response checks, CORS), its secrets (`[secrets] required`) and rate limiting bindings. A new binding gets
 * the next free namespace id; one the account has keeps its own.
 */
export function deploymentBlock(contract: Contract, current: CurrentDeployment = {}): string {
  const namespaceIds = current.namespaceIds ?? new Map<string, string>();
  const lines = [
    BLOCK_START,
    "# Written from src/contract by `npm run contract:deployment` (the importer runs it too);",
    "# test/tools/contract-deployment.node.test.ts fails when this block and the contract disagree.",
    "# Secrets are listed by name only: their values are set with `wrangler secret put`.",
    "",
    "[vars]",
    "# Platform setting, not part of the service's interface: whether answers of declared",
    '# operations are checked against their declared responses. "off", "log" (a warning per',
    '# mismatch) or "enforce" (a mismatch becomes a 500 problem). Tests run with "enforce".',
    `RESPONSE_VALIDATION = ${JSON.stringify(current.responseValidation ?? "log")}`,
    "# Platform setting, not part of the service's interface: cross-origin calls from browsers",
    "# (CORS, the Fetch Standard). The origins allowed, comma-separated and exact",
    '# ("https://app.example.com, https://admin.example.com"), or "*" for any. Empty: CORS is',
    "# off and no CORS header is sent. What an allowed origin may do (methods, request and",
    "# answer headers) is derived from the contract, never set here.",
    `${CORS_VARS.origins} = ${JSON.stringify(currentVar(current, CORS_VARS.origins, ""))}`,
    '# "true": browsers may send cookies and Authorization cross-origin. Never with "*": that',
    "# setting is refused (a log line, and no CORS header at all).",
    `${CORS_VARS.credentials} = ${JSON.stringify(currentVar(current, CORS_VARS.credentials, "false"))}`,
    `# Seconds a browser may reuse a preflight's answer: 0 to ${MAX_MAX_AGE}.`,
    `${CORS_VARS.maxAge} = ${JSON.stringify(currentVar(current, CORS_VARS.maxAge, String(DEFAULT_MAX_AGE)))}`,
    "# Platform setting, not part of the service's interface: how a declared operation without",
    '# a handler answers a valid request. "501" (not implemented; what a production deployment',
    '# keeps), "examples" (an answer made from the contract\'s examples; a request chooses with',
    '# Prefer: code=, example=, dynamic=true) or "sandbox" (a store of the contract\'s resources).',
    "# Any other value answers 501 and is logged. Such answers carry `Answered-By`.",
    `${UNHANDLED_VAR} = ${JSON.stringify(currentVar(current, UNHANDLED_VAR, "501"))}`,
  ];
  const queues = eventQueues(contract, current.workerName ?? "contract-edge-service");
  if (queues)
    lines.push(
      "# Where part 6's events are delivered: deployment configuration, never the contract's.",
      '# A JSON list of {"url": "https://…", "events": ["<event>", …], "secret": "<SECRET_NAME>"},',
      "# each secret a Worker secret holding the receiver's whsec_ key (several, space-separated,",
      "# while one is rotated). Empty: nothing is sent, and the status report says so.",
      `${DESTINATIONS_VAR} = ${JSON.stringify(current.vars?.[DESTINATIONS_VAR] ?? "")}`,
    );
  const settings = requiredSettings(contract);
  if (settings.length > 0) {
    // Credentials, and the JWT schemes' key set, issuer and audience: each differs between
    // deployments and is set outside the repository (`wrangler secret put`, or .dev.vars
    // locally). Listed as required secrets, `wrangler deploy` refuses to deploy until each
    // is set, and `wrangler dev` loads each from .dev.vars (wrangler 4.86 loads only the
    // listed names from it once this table exists).
    lines.push("", "[secrets]");
    for (const { name, meaning } of settings) lines.push(`# ${name}: ${meaning}`);
    lines.push(`required = [${settings.map((s) => JSON.stringify(s.name)).join(", ")}]`);
  }
  const used = new Set(namespaceIds.values());
  let next = 1001;
  for (const binding of rateLimitBindings(contract)) {
    let id = namespaceIds.get(binding.name);
    if (id === undefined) {
      while (used.has(String(next))) next += 1;
      id = String(next);
      used.add(id);
    }
    lines.push(
      "",
      "# A namespace id of the account's choosing (Workers Rate Limiting).",
      "[[ratelimits]]",
      `name = ${JSON.stringify(binding.name)}`,
      `namespace_id = ${JSON.stringify(id)}`,
      `simple = { limit = ${binding.limit}, period = ${binding.period} }`,
    );
  }
  if (queues)
    lines.push(
      "",
      "# Part 6: events are queued here, then delivered by this Worker's queue() handler.",
      "[[queues.producers]]",
      `binding = ${JSON.stringify(queues.producer.binding)}`,
      `queue = ${JSON.stringify(queues.producer.queue)}`,
      "",
      "# Deliveries that exhausted their retries: kept for an operator, never dropped.",
      "[[queues.producers]]",
      `binding = ${JSON.stringify(queues.deadLetter.binding)}`,
      `queue = ${JSON.stringify(queues.deadLetter.queue)}`,
      "",
      "[[queues.consumers]]",
      `queue = ${JSON.stringify(queues.consumer.queue)}`,
      `max_batch_size = ${queues.consumer.max_batch_size}`,
      `max_retries = ${queues.consumer.max_retries}`,
      `dead_letter_queue = ${JSON.stringify(queues.consumer.dead_letter_queue)}`,
    );
  const sandbox = sandboxStorage(contract);
  if (sandbox)
    lines.push(
      "",
      "# The sandbox's store (src/mocks/sandbox): a Durable Object with SQLite storage per",
      "# caller's sandbox, exported by src/index.ts from src/generated/durable-objects.ts.",
      "# Removing it once deployed deletes its data and needs a `deleted_classes` migration.",
      "[[durable_objects.bindings]]",
      `name = ${JSON.stringify(sandbox.binding.name)}`,
      `class_name = ${JSON.stringify(sandbox.binding.class_name)}`,
      "",
      "[[migrations]]",
      `tag = ${JSON.stringify(sandbox.migration.tag)}`,
      `new_sqlite_classes = ${JSON.stringify(sandbox.migration.new_sqlite_classes)}`,
    );
  lines.push(BLOCK_END);
  return `${lines.join("\n")}\n`;
}

/** `.dev.vars.example`: each secret and setting with its placeholder, never a value. */
export function devVarsExample(contract: Contract): string {
  const settings = requiredSettings(contract);
  const header = [
    "# Local secrets for `wrangler dev` (.dev.vars, gitignored). `npm run dev` makes local",
    "# values for each of them (a local issuer for JWT schemes); put real ones in .dev.vars",
    "# instead to try a real issuer. Generated from src/contract by `npm run contract:deployment`:",
    "# each is listed with a placeholder, never a value.",
  ];
  if (settings.length === 0)
    header.push("# The contract declares no security scheme, so the Worker needs no secret.");
  // What each holds, said beside it: a basic scheme's secret is `user-id:password`, which the
  // spec's placeholder (<API_KEY>) does not say.
  const lines = settings.flatMap((s) => [`# ${s.meaning}`, `${s.name}=${s.placeholder}`]);
  return `${[...header, ...lines].join("\n")}\n`;
}

/** wrangler.toml with its generated block replaced (or appended, the first time). */
export function withDeploymentBlock(toml: string, block: string): string {
  const start = toml.indexOf(BLOCK_START);
  const end = toml.indexOf(BLOCK_END);
  if (start === -1 || end === -1) return `${toml.trimEnd()}\n\n${block}`;
  return `${toml.slice(0, start)}${block}${toml.slice(end + BLOCK_END.length).replace(/^\n/, "")}`;
}
