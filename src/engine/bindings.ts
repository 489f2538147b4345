/**
 * Names of Worker bindings (secrets, vars, rate limiters) a contract refers to. A binding
 * name must be a JavaScript identifier, since `env.NAME` is how a Worker reads it.
 */
const BINDING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isBindingName(name: string): boolean {
  return BINDING_NAME.test(name);
}
