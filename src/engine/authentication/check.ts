/**
 * Part 5's declarations, checked when the app starts: a scheme that could not be enforced
 * as written, or an operation whose requirement could not be met or says nothing, stops
 * the Worker from starting.
 */
import type { Contract } from "../../domain/contract";
import { isBindingName } from "../bindings";

const SCHEME_NAME = /^[A-Za-z0-9._-]+$/; // OpenAPI 3.1 §4.8.7: component keys
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/; // RFC 9110 §5.1: token
const QUOTABLE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/; // qdtext without '"' and '\'

/** The schemes, then every operation's `security`. */
export function checkSecurity(contract: Contract): void {
  for (const [name, scheme] of Object.entries(contract.securitySchemes)) {
    const fail = (why: string) => new Error(`security scheme ${name}: ${why}`);
    if (!SCHEME_NAME.test(name)) throw fail("the name must match [A-Za-z0-9._-]+");
    if (!isBindingName(scheme.secret))
      throw fail(`secret ${JSON.stringify(scheme.secret)} is not a valid binding name`);
    if (scheme.type === "apiKey") {
      if (!["header", "query", "cookie"].includes(scheme.in))
        throw fail("in must be header, query or cookie");
      if (!FIELD_NAME.test(scheme.name)) throw fail("the key's name must be an HTTP token");
      if (scheme.in === "header" && scheme.name.toLowerCase() === "authorization")
        throw fail("an Authorization credential is declared as an http scheme");
    } else if (scheme.scheme === "basic") {
      if (!QUOTABLE.test(scheme.realm) || scheme.realm === "")
        throw fail("the realm must be printable ASCII without quotes or backslashes");
    } else if (scheme.scheme !== "bearer") {
      throw fail("an http scheme must be bearer or basic");
    }
  }
  const declared = Object.keys(contract.securitySchemes).length > 0;
  for (const [id, operation] of Object.entries(contract.operations)) {
    const fail = (why: string) => new Error(`operation ${id}: ${why}`);
    if (operation.security === undefined) {
      // Nothing is left open by omission.
      if (declared) throw fail("part 5 declares security schemes, so security must be declared");
      continue;
    }
    for (const alternative of operation.security) {
      if (alternative.length === 0) throw fail("a security alternative names no scheme");
      let authorizationUsers = 0;
      for (const name of alternative) {
        const scheme = contract.securitySchemes[name];
        if (!scheme) throw fail(`security names ${name}, which part 5 does not declare`);
        if (scheme.type === "http") authorizationUsers += 1;
      }
      if (authorizationUsers > 1)
        throw fail(
          "one alternative needs two Authorization credentials, which cannot both be sent",
        );
    }
  }
}
