/**
 * An operation's model, planned: its outline, then everything serving needs, then the
 * pipeline those make. Called on the operation's first request (`mount.ts`), never when the
 * Worker starts. Planning cannot fail: the start-up checks refused whatever would.
 */
import type { Contract, Operation } from "../../contract-language/contract";
import type { AnyHandler } from "../../contract-language/define-handlers";
import type { Verifier } from "../../contract-language/verifiers";
import type { JwtVerifier } from "../../platform/engine-seam";
import type { ProblemPresenter } from "../../platform/problem-presenter";
import type { ExampleBook } from "../examples/book";
import { planLimits } from "../limits/plan";
import type { ServingParts } from "../parts";
import { type HiddenFields, planRequest } from "../request/plan";
import type { SandboxCaller } from "../sandbox/reset";
import type { VersionGate } from "../versions/negotiate";
import type { XmlShapes } from "../zod/xml-mappings";
import type { ExamplesAnswer, OperationModel, ProblemForm } from "./model";
import { planResponses } from "./responses";
import { pipeline } from "./steps";

/** What is the same for every variant of one operation, decided when the app is built. */
export interface OperationSetting {
  readonly contract: Contract;
  readonly id: string;
  readonly handler: AnyHandler | undefined;
  /** How part 7 presents this operation's failures. */
  readonly present: ProblemPresenter;
  readonly versions: VersionGate | undefined;
  readonly variant: (version: string | undefined) => OperationModel;
  readonly problemForm: ProblemForm | undefined;
  /** The body cap where part 8 declares none. */
  readonly maxBodyBytes: number;
  /** The fields part 9 reads itself (the version), kept from the schemas. */
  readonly versionHidden: Partial<HiddenFields>;
  /** The path template's parameters, as their text stands in the path the router matched. */
  readonly pathParameters: (path: string) => Record<string, string>;
  readonly jwt: JwtVerifier | undefined;
  /** The deployment's verifiers of the schemes only code verifies, by scheme name. */
  readonly verifiers: Readonly<Record<string, Verifier | undefined>>;
  /** The XML mappings of each of the operation's shapes, when the contract declares XML. */
  readonly xml: XmlShapes | undefined;
  /** Misconfigured security schemes, logged once for the whole app. */
  readonly reported: Set<string>;
  /** What operations without a handler answer from under the `examples` setting. */
  readonly exampleBook: (env: unknown) => Promise<ExampleBook | undefined>;
  /** How they answer from them, where the Worker has the examples part (src/engine/parts.ts). */
  readonly examples: ExamplesAnswer | undefined;
  /** The parts of the engine the Worker was given (src/engine/parts.ts). */
  readonly parts: ServingParts;
  /** Who a request is to the sandbox where the operation is open (the store part's). */
  readonly sandboxCaller: SandboxCaller | undefined;
}

/**
 * The model of `shape`, one variant of the operation (the operation itself without part 9),
 * the `shapeIndex`-th of `operationShapes`.
 */
export function planOperation(
  setting: OperationSetting,
  shape: Operation,
  shapeIndex = 0,
): OperationModel {
  const { contract, id, handler, jwt, parts } = setting;
  const xml = setting.xml?.(shape);
  const limits = planLimits(contract, id);
  const security = parts.security?.plan(
    contract,
    id,
    shape,
    jwt,
    setting.reported,
    parts.introspection,
    {
      verifiers: setting.verifiers,
      signatures: parts.signatures,
      maxBodyBytes: limits.maxBodyBytes ?? setting.maxBodyBytes,
    },
  );
  const planned = {
    id,
    operation: shape,
    limits,
    contract,
    handler,
    present: setting.present,
    versions: setting.versions,
    variant: setting.variant,
    problemForm: setting.problemForm,
    security,
    request: planRequest(shape, {
      maxBodyBytes: limits.maxBodyBytes ?? setting.maxBodyBytes,
      hidden: hide(security?.fields, setting.versionHidden),
      pathParameters: setting.pathParameters,
      ...(xml ? { xml } : {}),
      ...(parts.forms ? { forms: parts.forms } : {}),
    }),
    responses: planResponses(contract, shape, xml),
    transition: parts.states?.plan(contract, shape),
    allowedIn: parts.states?.guardPlan(contract, shape),
    emits: shape.emits ?? [],
    shapeIndex,
    exampleBook: setting.exampleBook,
    examples: setting.examples,
    sandbox: handler ? undefined : sandboxOf(contract, id, parts),
    sandboxCaller: setting.sandboxCaller,
  };
  return { ...planned, steps: pipeline(planned, parts) };
}

/** The sandbox as the handler of operation `id`, planned on its first use. */
function sandboxOf(
  contract: Contract,
  id: string,
  parts: ServingParts,
): (() => AnyHandler | undefined) | undefined {
  const { sandbox } = parts;
  if (!sandbox) return undefined;
  let handler: AnyHandler | undefined | null = null;
  return () => {
    if (handler === null) handler = sandbox.handler(contract, id);
    return handler;
  };
}

/** The fields kept from the schemas: credentials' and the version's. */
function hide(
  security: HiddenFields | undefined,
  version: Partial<HiddenFields>,
): HiddenFields | undefined {
  if (Object.keys(version).length === 0) return security;
  const union = (a?: ReadonlySet<string>, b?: ReadonlySet<string>) =>
    new Set([...(a ?? []), ...(b ?? [])]);
  return {
    path: union(security?.path, version.path),
    header: union(security?.header, version.header),
    query: union(security?.query, version.query),
    cookie: union(security?.cookie, version.cookie),
  };
}
