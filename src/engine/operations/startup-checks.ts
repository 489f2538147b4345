/**
 * Part 4's declarations, checked when the app starts: a declaration the platform would
 * serve wrongly (a method it cannot route, a path template whose parameters differ from
 * its params schema, a body it cannot read) stops the Worker from starting, with one line
 * that names the operation. The compiler refuses most of these first (`defineContract`);
 * this catches what types cannot see.
 */
import {
  type Contract,
  OPERATION_METHODS,
  type Operation,
  operationShapes,
  resolveSchema,
  type Schema,
} from "../../contract-language/contract";
import { isDeclarableMediaType } from "../../contract-language/media-types";
import { PARAMETER_STYLES, type ParameterLocation } from "../../contract-language/parameters";
import { fixedQuery, routedPath } from "../../contract-language/path-key";
import { declaredSerialisation, valueKind } from "../request/parameters";
import { objectShape } from "../zod/shape";
import { routePath, routeShape } from "./path-template";

function checkParams(id: string, operation: Operation, parameters: readonly string[]): void {
  const params = resolveSchema(operation.request?.params);
  if (!params) {
    if (parameters.length > 0)
      throw new Error(
        `operation ${id}: path parameters ${parameters.join(", ")} need a request.params schema`,
      );
    return;
  }
  const shape = objectShape(params);
  if (!shape) throw new Error(`operation ${id}: request.params must be an object schema`);
  const members = Object.keys(shape).sort();
  const names = [...parameters].sort();
  if (members.join("\n") !== names.join("\n")) {
    const list = (items: readonly string[]) => (items.length === 0 ? "none" : items.join(", "));
    throw new Error(
      `operation ${id}: the parameters of ${operation.path} (${list(names)}) and the members of request.params (${list(members)}) must be the same`,
    );
  }
}

/**
 * Each parameter's declared serialisation must be one OpenAPI defines for its place (OpenAPI
 * 3.1 §4.8.12.4, Style Values): a style of its location, `deepObject` for an object only,
 * `allowReserved` for a query parameter only.
 */
function checkStyles(id: string, operation: Operation): void {
  const request = operation.request;
  const locations: readonly [ParameterLocation, Schema | undefined][] = [
    ["path", resolveSchema(request?.params)],
    ["query", resolveSchema(request?.query)],
    ["header", resolveSchema(request?.headers)],
    ["cookie", resolveSchema(request?.cookies)],
  ];
  for (const [location, schema] of locations) {
    for (const [name, member] of Object.entries((schema && objectShape(schema)) ?? {})) {
      const { style, explode, allowReserved } = declaredSerialisation(member);
      const where = `operation ${id}: ${location} parameter ${name}`;
      if (style !== undefined && !PARAMETER_STYLES[location].includes(style))
        throw new Error(
          `${where}: style ${String(style)} is not one of a ${location} parameter's (${PARAMETER_STYLES[location].join(", ")})`,
        );
      if (style === "deepObject" && valueKind(member) !== "object")
        throw new Error(`${where}: style deepObject serialises objects only`);
      for (const [field, value] of [
        ["explode", explode],
        ["allowReserved", allowReserved],
      ] as const)
        if (value !== undefined && typeof value !== "boolean")
          throw new Error(`${where}: ${field} must be true or false`);
      if (allowReserved !== undefined && location !== "query")
        throw new Error(`${where}: allowReserved applies to query parameters only`);
    }
  }
}

/**
 * Every media type of a body must be one (RFC 9110 §8.3.1: `type/subtype`, no parameters:
 * the platform matches essences) or a range (`image/*`, `*\/*`); a request body's decides how
 * it is read (src/contract-language/contract.ts, `Content`).
 */
function checkMediaTypes(id: string, operation: Operation): void {
  const declared = [
    ...Object.keys(operation.request?.body ?? {}).map((type) => ["request body", type] as const),
    ...Object.entries(operation.responses).flatMap(([status, response]) =>
      Object.keys(response.content ?? {}).map((type) => [`response ${status}`, type] as const),
    ),
  ];
  for (const [where, type] of declared) {
    if (!isDeclarableMediaType(type))
      throw new Error(
        `operation ${id}: ${where} media type ${JSON.stringify(type)} is not a media type (type/subtype, no parameters)`,
      );
  }
  if (operation.request?.body && Object.keys(operation.request.body).length === 0)
    throw new Error(`operation ${id}: request.body declares no media type`);
}

/**
 * Response keys are statuses an answer can have (RFC 9110 §15: 200 to 599 here, as a
 * Response cannot carry 1xx), ranges `2XX` to `5XX`, or `default` (OpenAPI 3.1 §4.8.16.2).
 */
function checkStatuses(id: string, operation: Operation): void {
  for (const key of Object.keys(operation.responses)) {
    const status = Number(key);
    const valid =
      /^[2-5]XX$/.test(key) || key === "default" || (/^[2-5]\d\d$/.test(key) && status >= 200);
    if (!valid)
      throw new Error(
        `operation ${id}: response ${JSON.stringify(key)} is not a status from 200 to 599, a range 2XX to 5XX, or default`,
      );
  }
}

/**
 * Two operations a request could both be: every fixed query value they both name is the same
 * (one with none is any request's that no other takes).
 */
function overlap(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) {
  const names = Object.keys(a);
  if (names.length === 0 || Object.keys(b).length === 0)
    return names.length === Object.keys(b).length;
  return names.every((name) => !Object.hasOwn(b, name) || b[name] === a[name]);
}

export function checkOperations(contract: Contract): void {
  const routes = new Map<string, [string, Readonly<Record<string, string>>][]>();
  const shapes = new Map<string, string>();
  for (const [id, operation] of Object.entries(contract.operations)) {
    if (!OPERATION_METHODS.includes(operation.method))
      throw new Error(`operation ${id}: method ${String(operation.method)} cannot be declared`);
    const { path, parameters } = routePath(id, operation.path);
    // Each variant of part 9 is checked as the operation it makes.
    for (const [index, shape] of operationShapes(operation).entries()) {
      const name = index === 0 ? id : `${id} (variant ${index - 1})`;
      checkParams(name, shape, parameters);
      checkStyles(name, shape);
      checkMediaTypes(name, shape);
      checkStatuses(name, shape);
    }
    const route = `${operation.method} ${path}`;
    // Operations on one method and path, each told apart by its fixed query values.
    const fixed = fixedQuery(operation);
    const same = routes.get(route) ?? [];
    const twin = same.find(([, other]) => overlap(fixed, other));
    if (twin)
      throw new Error(
        Object.keys(fixed).length === 0 && Object.keys(twin[1]).length === 0
          ? `operation ${id}: ${operation.method} ${routedPath(operation.path)} is also operation ${twin[0]}'s, and nothing in a request tells them apart (give each its fixed query values)`
          : `operation ${id}: ${operation.method} ${routedPath(operation.path)} is also operation ${twin[0]}'s, and their fixed query values do not tell them apart`,
      );
    same.push([id, fixed]);
    routes.set(route, same);
    const shape = routeShape(path);
    const other = shapes.get(shape);
    if (other !== undefined && other !== path)
      throw new Error(`operation ${id}: paths ${other} and ${path} differ only in parameter names`);
    shapes.set(shape, path);
  }
}
