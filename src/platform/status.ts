/**
 * The interface status report: for each of the nine spec parts, whether the contract
 * declares anything in it. Derived from the contract on every build of the app, never
 * maintained by hand.
 */

import type {
  BodySizeLimit,
  Contract,
  PageSizeLimit,
  RequestRateLimit,
  StateMachine,
  VersionPlacement,
} from "../contract-language/contract";
import { SPEC_PARTS } from "../contract-language/parts";
import type { PlatformProblem } from "../contract-language/problem-catalogue";
import type { CorsStatus } from "./cors";
import type { PlatformDefault } from "./defaults";
import { errorTypeUri } from "./problem-presenter";

interface PartStatus {
  readonly number: number;
  readonly name: string;
  readonly title: string;
  readonly specified: boolean;
  /** How many declarations the part holds, keyed by what it counts. */
  readonly declared: Readonly<Record<string, number>>;
  /** Where the part is declared in this repository. */
  readonly source: string;
}

/** A limit part 8 declares, as the report shows it: without the binding that counts it. */
type ServiceLimit = { readonly name: string } & (
  | BodySizeLimit
  | Omit<RequestRateLimit, "binding">
  | PageSizeLimit
);

/**
 * A platform failure that part 7 answers as one of its error types (RFC 9457): the status
 * and problem type a client gets for it instead of the platform's own.
 */
interface PresentedFailure {
  readonly failure: PlatformProblem;
  readonly errorType: string;
  readonly status: number;
  /** The problem type URI the answer carries. */
  readonly type: string;
  /** The answer's media type, where the error type has its own body (not RFC 9457's). */
  readonly mediaType?: string;
  /** Only these operations answer the failure so (their own `presents`); absent: every one. */
  readonly operations?: readonly string[];
}

/** An event part 6 declares, and how many destinations this deployment sends it to. */
interface EventStatus {
  readonly name: string;
  readonly summary?: string;
  /** 0: the deployment configures no receiver for it, so it is not sent. */
  readonly destinations: number;
}

/**
 * How operations without a handler answer: the deployment's setting (the
 * `UNHANDLED_OPERATIONS` var, src/engine/operations/unhandled.ts). `501` is the default and
 * what a production deployment keeps; `examples` answers from the contract's examples,
 * `sandbox` from a store of its resources.
 */
export type UnhandledSetting = "501" | "examples" | "sandbox";

/** How one operation is answered: by its handler, or, without one, as the setting says. */
export type AnsweredBy = "handler" | UnhandledSetting;

/**
 * Where the sandbox places an operation without a handler (src/mocks/sandbox/place.ts),
 * decided when the Worker is built: an action on a part 2 resource, or `examples`, and why.
 */
export interface SandboxStatus {
  readonly place: string;
  readonly resource?: string;
  readonly why: string;
}

/** An operation part 4 declares, and how this deployment answers it. */
export interface OperationStatus {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly answeredBy: AnsweredBy;
  /** Without a handler: how the `sandbox` setting answers it, and why. */
  readonly sandbox?: SandboxStatus;
  /**
   * Without a handler: the answers the `examples` setting makes rather than takes from the
   * document, having no example of their own (`200 image/png`): made from the schema, or,
   * for a binary body, bytes made for it.
   */
  readonly madeAnswers?: readonly string[];
}

/** What the deployment's setting makes of the operations without a handler. */
export interface Answering {
  readonly setting: UnhandledSetting;
  /** How an operation without a handler is answered under it (its sandbox place, if any). */
  readonly answeredBy: (operation: Pick<OperationStatus, "sandbox">) => AnsweredBy;
}

/** A state machine part 3 declares, as the report shows it: named. */
type MachineStatus = { readonly name: string } & StateMachine;

/** A version part 9 declares, with its retirement dates. */
interface VersionStatus {
  readonly version: string;
  readonly current: boolean;
  readonly deprecated?: string;
  readonly sunset?: string;
  readonly migration?: string;
}

export interface StatusReport {
  /** One sentence that tells a reader how to read the rest. */
  readonly description: string;
  readonly specifiedParts: number;
  readonly totalParts: number;
  readonly parts: readonly PartStatus[];
  /** The limits of the service, as part 8 declares them. */
  readonly limits: readonly ServiceLimit[];
  /** Bounds the platform applies on its own where part 8 declares none; not limits of the service. */
  readonly platformDefaults: readonly PlatformDefault[];
  /** The platform's failures answered as part 7's error types; empty when part 7 presents none. */
  readonly errorModel: readonly PresentedFailure[];
  /** Part 6's events, each with the number of destinations this deployment configures. */
  readonly events: readonly EventStatus[];
  /** Part 3's state machines: their states and transitions. */
  readonly states: readonly MachineStatus[];
  /** Part 9's versions, oldest first, with their deprecation and sunset dates. */
  readonly versions: readonly VersionStatus[];
  /** Where a request states the version it wants, once versions are negotiated. */
  readonly versionPlacement?: VersionPlacement;
  /**
   * Cross-origin requests from browsers (CORS): a setting of this deployment, not of the
   * interface. Which origins may call, with or without credentials; off by default.
   */
  readonly cors: CorsStatus;
  /** How operations without a handler answer (a setting of the deployment): `501` by default. */
  readonly unhandledOperations: UnhandledSetting;
  /** Part 4's operations, each with how it is answered (`handler`, or the setting's way). */
  readonly operations: readonly OperationStatus[];
}

const CORS_OFF: CorsStatus = { enabled: false, origins: [] };

/** Without the setting: operations without a handler answer 501. */
const ANSWERED_501: Answering = { setting: "501", answeredBy: () => "501" };

/**
 * The spec's error model over the platform's failures: each error type's `presents`, for
 * every operation, then each operation's own, grouped by failure and error type.
 */
function errorModel(contract: Contract): PresentedFailure[] {
  const entry = (failure: PlatformProblem, name: string, operations?: string[]) => {
    const error = contract.errors[name];
    if (!error) return [];
    return [
      {
        failure,
        errorType: name,
        status: error.status,
        type: errorTypeUri(name, error),
        ...(error.body ? { mediaType: error.body.mediaType } : {}),
        ...(operations ? { operations } : {}),
      },
    ];
  };
  const global = Object.entries(contract.errors).flatMap(([name, error]) =>
    (error.presents ?? []).flatMap((failure) => entry(failure, name)),
  );
  const own = new Map<string, string[]>();
  for (const [id, operation] of Object.entries(contract.operations))
    for (const [failure, name] of Object.entries(operation.presents ?? {}))
      own.set(`${failure}\n${name}`, [...(own.get(`${failure}\n${name}`) ?? []), id]);
  return [
    ...global,
    ...[...own].flatMap(([key, operations]) => {
      const [failure, name] = key.split("\n") as [PlatformProblem, string];
      return entry(failure, name, operations);
    }),
  ];
}

function serviceLimits(contract: Contract): ServiceLimit[] {
  return Object.entries(contract.limits).map(([name, limit]): ServiceLimit => {
    if (limit.kind !== "rate") return { name, ...limit };
    const { binding: _deploymentDetail, ...shown } = limit;
    return { name, ...shown };
  });
}

/** The report of `contract` as this deployment serves it. */
export function statusReport(
  contract: Contract,
  defaults: readonly PlatformDefault[],
  /** How many destinations the deployment gives an event (the engine reads them from its vars). */
  destinations: (event: string) => number = () => 0,
  /** The deployment's CORS setting (src/platform/cors.ts). */
  cors: CorsStatus = CORS_OFF,
  /** The operations with a handler. */
  implemented: ReadonlySet<string> = new Set(),
  /** The deployment's setting for those without one. */
  answering: Answering = ANSWERED_501,
  /** Where the sandbox places each operation, by id (the engine's, when it serves operations). */
  placements: ReadonlyMap<string, SandboxStatus> = new Map(),
  /** The answers made rather than taken from an example, by operation id. */
  made: ReadonlyMap<string, readonly string[]> = new Map(),
): StatusReport {
  const parts = SPEC_PARTS.map((part): PartStatus => {
    const count = part.count(contract);
    return {
      number: part.number,
      name: part.name,
      title: part.title,
      specified: count > 0,
      declared: { [part.unit]: count },
      source: `src/contract/${part.name}.ts`,
    };
  });
  return {
    description:
      "Each of the nine parts of the service's interface specification, and whether this " +
      "deployment declares it. A part that is not specified is served as such: requests " +
      "that would need it are answered with a problem document that names it.",
    specifiedParts: parts.filter((p) => p.specified).length,
    totalParts: parts.length,
    parts,
    limits: serviceLimits(contract),
    platformDefaults: defaults,
    errorModel: errorModel(contract),
    events: Object.entries(contract.events).map(([name, event]) => ({
      name,
      ...(event.summary ? { summary: event.summary } : {}),
      destinations: destinations(name),
    })),
    states: Object.entries(contract.states).map(([name, machine]) => ({ name, ...machine })),
    ...(contract.versioning?.versions && contract.versioning.placement
      ? { versionPlacement: contract.versioning.placement }
      : {}),
    versions: Object.entries(contract.versioning?.versions ?? {}).map(([version, declared]) => ({
      version,
      current: version === contract.versioning?.current,
      ...declared,
    })),
    cors,
    unhandledOperations: answering.setting,
    operations: Object.entries(contract.operations).map(([id, { method, path }]) => {
      const sandbox = implemented.has(id) ? undefined : placements.get(id);
      const placed = sandbox ? { sandbox } : {};
      const madeAnswers = implemented.has(id) ? undefined : made.get(id);
      return {
        id,
        method,
        path,
        answeredBy: implemented.has(id) ? "handler" : answering.answeredBy(placed),
        ...placed,
        ...(madeAnswers && madeAnswers.length > 0 ? { madeAnswers } : {}),
      };
    }),
  };
}

/**
 * The report as this deployment serves it: the report the build made of the contract, with
 * what only the deployment's bindings say (each event's destinations, the CORS setting).
 * The members keep their order, so the JSON is the one `statusReport` gives directly.
 */
export function withDeployment(
  report: StatusReport,
  destinations: (event: string) => number = () => 0,
  cors: CorsStatus = CORS_OFF,
  answering: Answering = ANSWERED_501,
): StatusReport {
  return {
    ...report,
    events: report.events.map((event) => ({ ...event, destinations: destinations(event.name) })),
    cors,
    unhandledOperations: answering.setting,
    operations: report.operations.map((operation) =>
      operation.answeredBy === "handler"
        ? operation
        : { ...operation, answeredBy: answering.answeredBy(operation) },
    ),
  };
}
