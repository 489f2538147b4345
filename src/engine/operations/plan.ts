/**
 * An operation's model, planned: its outline, then everything serving needs, then the
 * pipeline those make. Called on the operation's first request (`mount.ts`), never when the
 * Worker starts. Planning cannot fail: the start-up checks refused whatever would.
 */
import type { Contract, Operation } from "../../contract-language/contract";
import type { AnyHandler } from "../../contract-language/define-handlers";
import type { Verifier } from "../../contract-language/verifiers";
import type { ProblemPresenter } from "../../platform/problem-presenter";
import type { JwtVerifier } from "../authentication/verify-jwt";
import type { ExampleBook } from "../example-book";
import type { ServingFeatures } from "../features";
import { planLimits } from "../limits/plan";
import type { SandboxCaller } from "../mock-features";
import { type HiddenFields, planRequest } from "../request/plan";
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
  /** How they answer from them, where the Worker has the examples feature (src/engine/features.ts). */
  readonly examples: ExamplesAnswer | undefined;
  /** The features of the engine the Worker was given (src/engine/features.ts). */
  readonly features: ServingFeatures;
  /** Who a request is to the sandbox where the operation is open (the store feature's). */
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
  const { contract, id, handler, jwt, features } = setting;
  const xml = setting.xml?.(shape);
  const limits = planLimits(contract, id);
  const security = features.security?.plan(
    contract,
    id,
    shape,
    jwt,
    setting.reported,
    features.introspection,
    {
      verifiers: setting.verifiers,
      signatures: features.signatures,
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
      ...(features.forms ? { forms: features.forms } : {}),
    }),
    responses: planResponses(contract, shape, xml),
    transition: features.states?.plan(contract, shape),
    allowedIn: features.states?.guardPlan(contract, shape),
    emits: shape.emits ?? [],
    shapeIndex,
    exampleBook: setting.exampleBook,
    examples: setting.examples,
    sandbox: handler ? undefined : sandboxOf(contract, id, features),
    sandboxCaller: setting.sandboxCaller,
  };
  return { ...planned, steps: pipeline(planned, features) };
}

/** The sandbox as the handler of operation `id`, planned on its first use. */
function sandboxOf(
  contract: Contract,
  id: string,
  features: ServingFeatures,
): (() => AnyHandler | undefined) | undefined {
  const { sandbox } = features;
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
