/**
 * `defineContract`, and the cross-references the compiler checks when a contract is
 * assembled: a contract that refers to something it does not declare does not compile.
 * What types cannot see (a path template's syntax, a schema's bounds) is checked again
 * when the app starts.
 */
import type { input, output } from "zod/v4/core";
import type { Built, Contract, SchemaDeclaration } from "./contract";
import type { PlatformProblem } from "./problem-catalogue";
import type { ReservedSchemaName } from "./reserved";

/** The names of the `{name}` parameters of an OpenAPI path template, as a union. */
export type PathParameters<Path extends string> = TemplateParameters<RoutedPath<Path>>;

type TemplateParameters<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | TemplateParameters<Rest>
  : never;

/** A key's path, without its query or fragment (src/contract-language/path-key.ts). */
type RoutedPath<Key extends string> = Key extends `${infer Before}#${string}`
  ? RoutedPath<Before>
  : Key extends `${infer Path}?${string}`
    ? Path
    : Key;

/**
 * A type no declaration has: where a check fails, the declaration is compared with this,
 * and the compiler's message carries the sentence that says what is wrong.
 */
export interface ContractError<Message extends string> {
  readonly "contract error": Message;
}

/** A record part that declares nothing, as a type: it has no key at all. */
type Nothing = Readonly<Record<never, never>>;

/** What part `K` of `P` declares (nothing when `P` leaves the part out). */
type Declared<P, K extends keyof Contract> = P extends { readonly [k in K]: infer R } ? R : Nothing;

type SchemeName<P> = keyof Declared<P, "securitySchemes"> & string;
type OperationId<P> = keyof Declared<P, "operations"> & string;
type ResourceName<P> = keyof Declared<P, "resources"> & string;
type ErrorName<P> = keyof Declared<P, "errors"> & string;
type EventName<P> = keyof Declared<P, "events"> & string;
type MachineName<P> = keyof Declared<P, "states"> & string;
/** The versions part 9 declares; any string while it declares none to negotiate. */
type VersionName<P> = P extends {
  readonly versioning: { readonly versions: infer V extends object };
}
  ? keyof V & string
  : string;

interface RangeOf<P> {
  readonly added?: VersionName<P>;
  readonly removed?: VersionName<P>;
}

/** An operation's version range, and each of its variants', names versions part 9 declares. */
type VersionRangeCheck<P, O> = (O extends { readonly versions: object }
  ? { readonly versions: RangeOf<P> }
  : unknown) &
  (O extends { readonly variants: object }
    ? {
        readonly variants: readonly {
          readonly versions: RangeOf<P>;
          readonly request?: unknown;
          readonly responses?: unknown;
        }[];
      }
    : unknown);
/** The triggers machine `M` of `P` declares. */
type TriggerOf<P, M> =
  M extends MachineName<P>
    ? Declared<P, "states">[M] extends { readonly transitions: readonly (infer T)[] }
      ? T extends { readonly trigger: infer G extends string }
        ? G
        : never
      : never
    : never;

/** An operation's transition names a machine of part 3 and one of its triggers. */
type TransitionCheck<P, O> = O extends {
  readonly transition: { readonly machine: infer M };
}
  ? {
      readonly transition: {
        readonly machine: MachineName<P>;
        readonly trigger: TriggerOf<P, M>;
      };
    }
  : unknown;
/** The states machine `M` of `P` declares. */
type StateName<P, M> =
  M extends MachineName<P>
    ? Declared<P, "states">[M] extends { readonly states: readonly (infer S extends string)[] }
      ? S
      : never
    : never;

/** An operation's `allowedIn` names a machine of part 3 and some of its states. */
type AllowedInCheck<P, O> = O extends {
  readonly allowedIn: { readonly machine: infer M };
}
  ? {
      readonly allowedIn: {
        readonly machine: MachineName<P>;
        readonly states: readonly StateName<P, M>[];
      };
    }
  : unknown;
type TagName<P> = P extends { readonly purpose: { readonly tags: infer T } }
  ? keyof T & string
  : never;

/** The scopes a requirement may ask of scheme `S`: an OAuth 2 scheme's declared ones, any for JWTs and introspected tokens, none otherwise. */
type ScopeOf<P, S extends string> = Declared<P, "securitySchemes">[S &
  keyof Declared<P, "securitySchemes">] extends infer Scheme
  ? Scheme extends { readonly type: "oauth2"; readonly flows: infer F }
    ? {
        [K in keyof F]: F[K] extends { readonly scopes: infer Scopes }
          ? keyof Scopes & string
          : never;
      }[keyof F]
    : Scheme extends { readonly jwt: object } | { readonly introspection: object }
      ? string
      : never
  : never;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The member names of an operation's `request.params` schema, as the client sends them. */
type ParamsMembers<O> = O extends {
  readonly request: { readonly params: infer S extends SchemaDeclaration };
}
  ? keyof input<Built<S>> & string
  : never;

/** RFC 6570-style template parameters and the params schema must name the same members. */
type ParamsCheck<O> = O extends { readonly path: infer Path extends string }
  ? Same<ParamsMembers<O>, PathParameters<Path>> extends true
    ? unknown
    : {
        readonly path: ContractError<`the {parameters} of ${Path} must be exactly the members of request.params`>;
      }
  : unknown;

/** Each variant that declares a request names the path's parameters in its params too. */
type VariantParamsCheck<O> = O extends {
  readonly path: infer Path extends string;
  readonly variants: readonly (infer V)[];
}
  ? [
      V extends { readonly request: object }
        ? Same<ParamsMembers<V>, PathParameters<Path>> extends true
          ? never
          : V
        : never,
    ] extends [never]
    ? unknown
    : {
        readonly path: ContractError<`the {parameters} of ${Path} must be exactly the members of each variant's request.params`>;
      }
  : unknown;

/** One requirement of `security`: part 5's schemes only, each with scopes it can grant. */
type RequirementCheck<P, R> = {
  readonly [K in keyof R]: K extends SchemeName<P>
    ? readonly ScopeOf<P, K>[]
    : ContractError<`${K & string} is not a security scheme of part 5`>;
};

/** `security`, `tags`, `errors`, `emits` and `presents` may only name what parts 5, 1, 7 and 6 declare (an event's `tags` too). */
type ReferenceCheck<P, O> = (O extends { readonly security: infer S extends readonly unknown[] }
  ? { readonly security: { readonly [I in keyof S]: RequirementCheck<P, S[I]> } }
  : unknown) & {
  readonly tags?: readonly TagName<P>[];
  readonly errors?: readonly ErrorName<P>[];
  readonly emits?: readonly EventName<P>[];
  readonly presents?: Readonly<Partial<Record<PlatformProblem, ErrorName<P>>>>;
};

/** A limit may only name operations part 4 declares. */
interface LimitCheck<P> {
  readonly operations: readonly OperationId<P>[];
}

/** A machine's resource is declared in part 2; its initial state and transitions use its states. */
type MachineCheck<P, M> = M extends { readonly states: readonly (infer S extends string)[] }
  ? {
      readonly resource: ResourceName<P>;
      readonly field?: M extends { readonly resource: infer R extends ResourceName<P> }
        ? keyof output<Built<Declared<P, "resources">[R]>> & string
        : string;
      readonly initial: S;
      readonly transitions: readonly {
        readonly from: S;
        readonly to: S;
        readonly trigger: string;
      }[];
    }
  : unknown;

/** Every cross-reference of a contract's parts, as the type a correct contract satisfies. */
export type ContractChecks<P> = {
  readonly operations?: {
    readonly [K in keyof Declared<P, "operations">]: ReferenceCheck<
      P,
      Declared<P, "operations">[K]
    > &
      ParamsCheck<Declared<P, "operations">[K]> &
      VariantParamsCheck<Declared<P, "operations">[K]> &
      TransitionCheck<P, Declared<P, "operations">[K]> &
      AllowedInCheck<P, Declared<P, "operations">[K]> &
      VersionRangeCheck<P, Declared<P, "operations">[K]>;
  };
  readonly resources?: {
    readonly [K in keyof Declared<P, "resources">]: K extends ReservedSchemaName
      ? ContractError<`${K & string} is the name of one of the platform's own schemas`>
      : unknown;
  };
  readonly limits?: { readonly [K in keyof Declared<P, "limits">]: LimitCheck<P> };
  readonly events?: {
    readonly [K in keyof Declared<P, "events">]: { readonly tags?: readonly TagName<P>[] };
  };
  readonly versioning?: P extends { readonly versioning: { readonly versions: object } }
    ? { readonly current: VersionName<P> }
    : unknown;
  readonly states?: {
    readonly [K in keyof Declared<P, "states">]: MachineCheck<P, Declared<P, "states">[K]>;
  };
};

/** Every part empty, typed so that the compiler knows it is empty. */
interface EmptyContract {
  readonly purpose: undefined;
  readonly resources: Nothing;
  readonly states: Nothing;
  readonly operations: Nothing;
  readonly securitySchemes: Nothing;
  readonly events: Nothing;
  readonly errors: Nothing;
  readonly limits: Nothing;
  readonly versioning: undefined;
}

/** The contract `defineContract` returns for the parts `P` declares: every other part empty. */
export type ContractOf<P extends Partial<Contract>> = Omit<EmptyContract, keyof P> & P;

/**
 * Builds a contract from the parts that declare something; every part left out is empty,
 * which is exactly how the status report comes to say "not specified" for it. The literal
 * types of the declarations are kept, so that handlers can be typed from them, and every
 * cross-reference is checked by the compiler (`ContractChecks`).
 */
export function defineContract<const P extends Partial<Contract>>(
  parts: P & ContractChecks<NoInfer<P>>,
): ContractOf<P> {
  return {
    purpose: undefined,
    resources: {},
    states: {},
    operations: {},
    securitySchemes: {},
    events: {},
    errors: {},
    limits: {},
    versioning: undefined,
    ...parts,
  };
}
