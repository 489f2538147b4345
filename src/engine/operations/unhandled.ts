/**
 * How a declared operation without a handler answers once its request passed every check:
 * a setting of the deployment (the `UNHANDLED_OPERATIONS` var, wrangler.toml's generated
 * block), never of the interface, so the OpenAPI document is the same under each value.
 * `501` is the default (RFC 9110 §15.6.2); `examples` answers from the contract's examples
 * (src/mocks/examples/answer.ts), `sandbox` from the sandbox where it places the operation
 * (src/mocks/sandbox/place.ts); any other value fails closed. Every answer made here
 * carries `Answered-By`, so a client never takes a made-up answer for a handler's. Each
 * value, and what is logged: src/mocks/README.md, "The `UNHANDLED_OPERATIONS` setting".
 */

import type { AnyHandler } from "../../contract-language/define-handlers";
import { OPERATION_NOT_IMPLEMENTED } from "../../contract-language/problem-catalogue";
import { log } from "../../platform/log";
import { typedProblem } from "../../platform/problem";
import type {
  AnsweredBy,
  Answering,
  OperationStatus,
  UnhandledSetting,
} from "../../platform/status";
import type { Refusal } from "../refusal";
import { UNHANDLED_VAR, unhandledSetting } from "./unhandled-setting";

export { UNHANDLED_VAR } from "./unhandled-setting";

import type { Exchange, Outcome, Step } from "./model";

/**
 * The header every answer not made by a handler carries, with how it was made (`examples`,
 * `sandbox` or `501`). No standard field says this: `Warning` (RFC 7234 §5.5) is obsolete
 * (RFC 9111), `Preference-Applied` says only which preferences were honoured, and RFC 6648
 * advises against an `X-` prefix, so the name says what it carries.
 */
export const ANSWERED_BY = "answered-by";

/** One setting: how an operation without a handler is answered under it. */
interface Way {
  /** What the status report says of an operation (the sandbox's place is the build's). */
  readonly answeredBy: (
    operation: Pick<OperationStatus, "sandbox">,
  ) => Exclude<AnsweredBy, "handler">;
  readonly answer: (x: Exchange) => Outcome | Promise<Outcome>;
}

/** RFC 9110 §15.6.2: declared, and the request valid for it, but not implemented yet. */
function notImplemented(id: string): Refusal {
  return {
    kind: "operation-not-implemented",
    problem: typedProblem(
      OPERATION_NOT_IMPLEMENTED,
      "This operation is declared and the request is valid for it, but it is not implemented yet.",
      { operationId: id },
    ),
  };
}

/** From the examples, where the Worker has the examples feature (src/engine/features.ts). */
function fromExamples(x: Exchange): Outcome | Promise<Outcome> {
  const unanswered = () => notImplemented(x.model.id);
  return x.model.examples ? x.model.examples(x, unanswered) : unanswered();
}

const WAYS: Readonly<Record<UnhandledSetting, Way>> = {
  "501": { answeredBy: () => "501", answer: (x) => notImplemented(x.model.id) },
  examples: { answeredBy: () => "examples", answer: fromExamples },
  // An operation the sandbox places is answered by it (`answerUnhandled`); any other from
  // the examples, and the header and report say so.
  sandbox: {
    answeredBy: ({ sandbox }) => (sandbox && sandbox.place !== "examples" ? "sandbox" : "examples"),
    answer: fromExamples,
  },
};

/** Settings this Worker was built without the answers of, each logged once per isolate. */
const unbuilt = new Set<UnhandledSetting>();

/**
 * The way this Worker answers under `setting`: `examples` and `sandbox` need the answers an
 * upload's build leaves out unless wrangler.toml asks for them (src/build/write.ts,
 * `unhandledAnswersWanted`). A Worker built without them fails closed: 501, as a production
 * deployment answers, and the cause logged once (where `say`), naming the setting only.
 */
function honoured(setting: UnhandledSetting, built: boolean, say = false): UnhandledSetting {
  if (setting === "501" || built) return setting;
  if (say && !unbuilt.has(setting)) {
    unbuilt.add(setting);
    log(
      "error",
      `${UNHANDLED_VAR} is ${setting}, but this Worker was uploaded without those answers (set it in wrangler.toml's [vars] before deploying): answering 501`,
      { setting: UNHANDLED_VAR, value: setting },
    );
  }
  return "501";
}

/**
 * What the setting of `env` makes of the operations without a handler, for the report;
 * `built`: whether this Worker has their answers (the examples feature, src/engine/features.ts).
 */
export function answering(env: unknown, built = true): Answering {
  const setting = unhandledSetting(env);
  return { setting, answeredBy: WAYS[honoured(setting, built)].answeredBy };
}

/** Runs a handler on the exchange as the handler step does (steps.ts). */
type RunHandler = (x: Exchange, handler: AnyHandler) => Promise<Outcome>;

/**
 * The step that stands where a handler would: the setting's way of answering. Under
 * `sandbox`, an operation the sandbox places (where the Worker has its feature) runs the
 * sandbox as its handler, through `run`.
 */
export function answerUnhandled(run: RunHandler): Step {
  return {
    name: "handle",
    run(x) {
      const setting = honoured(unhandledSetting(x.c.env), x.model.examples !== undefined, true);
      const sandbox = setting === "sandbox" ? x.model.sandbox?.() : undefined;
      if (sandbox) {
        x.headers = { ...x.headers, [ANSWERED_BY]: "sandbox" };
        return run(x, sandbox);
      }
      const way = WAYS[setting];
      // Here, only an operation the sandbox does not place (or a Worker without it).
      x.headers = { ...x.headers, [ANSWERED_BY]: way.answeredBy({}) };
      return way.answer(x);
    },
  };
}
