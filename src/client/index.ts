/**
 * A client typed straight from the contract, with no generation step (as ts-rest's and
 * oRPC's are): one method per operation id, taking exactly what the operation declares and
 * answering a union of every answer it can get, discriminated by `status`. It reads the
 * contract as data and imports nothing of the server (test/service/architecture.node.test.ts
 * and bundle-contents.slow.test.ts hold it to that). What it takes, sends and checks:
 * src/client/README.md; a first call: the project's README, "For callers".
 */
import type { Contract, Operation } from "../contract-language/contract";
import { AnswerMismatchError, answerMismatch, readAnswer } from "./answer";
import type { AnswerOf } from "./answers";
import type { CallOptions, InputOf, VersionOf } from "./calls";
import { type CallArguments, type Credentials, requestOf } from "./request";

export type { Answer, AnswerOf, ReceivedBody } from "./answers";
export type { CallInput, CallOptions, InputOf, Sent, SentBody, VersionOf } from "./calls";
export type { Credentials, CredentialValue } from "./request";
export { AnswerMismatchError };

/** Something with `fetch(request)`: a Workers service binding (`Fetcher`), or a test's app. */
export interface Binding {
  fetch(request: Request): Promise<Response>;
}

export interface ClientOptions<C extends Contract> {
  /** Where the service is served: any base URL; a path after its host is kept. Optional over a binding. */
  readonly baseUrl?: string;
  /** A Workers service binding to call through instead of the network. */
  readonly binding?: Binding;
  /** The `fetch` to call over the network; the global one when absent. */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Credentials by part 5's scheme name: each call sends those of the first requirement it can satisfy. */
  readonly credentials?: Credentials<C>;
  /** The version of part 9 every call asks for; the contract's current one when absent. */
  readonly version?: VersionOf<C>;
  /**
   * Check every answer against the contract (a declared status, media type and body, or
   * a problem document), and throw `AnswerMismatchError` for one that does not match. Off
   * by default: it costs a schema validation per answer.
   */
  readonly checkAnswers?: boolean;
}

type OperationOf<C extends Contract, Id extends keyof C["operations"]> = C["operations"][Id];

/** One operation's method: its input may be left out when nothing in it is required. */
export type OperationCall<C extends Contract, Id extends keyof C["operations"]> = (
  ...args: Record<never, never> extends InputOf<OperationOf<C, Id>>
    ? [input?: InputOf<OperationOf<C, Id>>, options?: CallOptions<C, OperationOf<C, Id>>]
    : [input: InputOf<OperationOf<C, Id>>, options?: CallOptions<C, OperationOf<C, Id>>]
) => Promise<AnswerOf<C, Id>>;

/** The client of contract `C`: one method per operation id. */
export type Client<C extends Contract> = {
  readonly [Id in keyof C["operations"] & string]: OperationCall<C, Id>;
};

/** A base URL for a binding, which routes by binding, not by host (RFC 6761 §6.4: `.invalid`). */
const BINDING_BASE = "https://service.invalid";

/** The version every call asks for unless it says otherwise: the current one, where part 9 negotiates. */
function defaultVersion(contract: Contract): string | undefined {
  const versioning = contract.versioning;
  return versioning?.versions && versioning.placement ? versioning.current : undefined;
}

/** The operation as the version asked for has it (part 9's variants); itself otherwise. */
function shapeFor(contract: Contract, op: Operation, version: string | undefined): Operation {
  if (!op.variants || version === undefined) return op;
  const order = Object.keys(contract.versioning?.versions ?? {});
  const at = order.indexOf(version);
  const variant = op.variants.find(({ versions: { added, removed } }) => {
    const from = added === undefined ? -1 : order.indexOf(added);
    const until = removed === undefined ? order.length : order.indexOf(removed);
    return at >= from && at < until;
  });
  return variant
    ? {
        ...op,
        ...(variant.request ? { request: variant.request } : {}),
        ...(variant.responses ? { responses: variant.responses } : {}),
      }
    : op;
}

/** The client of `contract`, calling the service `options` says. */
export function createClient<const C extends Contract>(
  contract: C,
  options: ClientOptions<NoInfer<C>>,
): Client<C> {
  const { binding } = options;
  const send = binding
    ? (request: Request) => binding.fetch(request)
    : (options.fetch ?? ((request: Request) => fetch(request)));
  const baseUrl = options.baseUrl ?? (binding ? BINDING_BASE : undefined);
  if (baseUrl === undefined)
    throw new TypeError("createClient: a baseUrl is needed to call the service over fetch");
  const credentials = (options.credentials ?? {}) as Readonly<Record<string, string>>;
  const methods: Record<string, unknown> = {};
  for (const [id, operation] of Object.entries(contract.operations as Contract["operations"])) {
    methods[id] = async (
      input: CallArguments = {},
      call: { accept?: string; version?: string; signal?: AbortSignal } = {},
    ) => {
      const version =
        defaultVersion(contract) === undefined
          ? undefined
          : (call.version ?? (options.version as string | undefined) ?? defaultVersion(contract));
      const op = shapeFor(contract, operation, version);
      const request = await requestOf(contract, op, input, {
        baseUrl,
        credentials,
        version,
        accept: call.accept,
        signal: call.signal,
      });
      const answer = await readAnswer(op, await send(request));
      if (options.checkAnswers) {
        const reason = await answerMismatch(contract, op, answer);
        if (reason !== undefined) throw new AnswerMismatchError(id, answer, reason);
      }
      return answer;
    };
  }
  return Object.freeze(methods) as Client<C>;
}
