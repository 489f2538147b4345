/**
 * Part 9 in the OpenAPI documents: the contract as one version has it, which the build
 * documents once per version (src/build/). Never served: the Worker ships the documents.
 */
import {
  type Contract,
  type Operation,
  operationShapes,
  schemaOf,
} from "../../contract-language/contract";
import { declaredSchemas } from "../../platform/openapi/document";
import { reachableSchemas } from "../zod/views";
import { planVersions, shapeIndex, versionsOf } from "./plan";

/**
 * The contract as one version has it, for that version's OpenAPI document: only the
 * operations of the version, each with the request and responses of its variant for the
 * version, marked deprecated when the version is, and only the resources of the version. With the version in the path, each path
 * starts with it. A version other than the current one is then required where it is
 * stated. Undefined for a version part 9 does not declare.
 */
export function contractForVersion(contract: Contract, version: string): Contract | undefined {
  const plan = planVersions(contract);
  if (!plan || !Object.hasOwn(plan.versions, version)) return undefined;
  const deprecated = plan.versions[version]?.deprecated !== undefined;
  const prefix = plan.placement.in === "path" ? `/${version}` : "";
  const operations = Object.fromEntries(
    Object.entries(contract.operations)
      .filter(([, op]) => versionsOf(plan, op.versions).includes(version))
      .map(([id, op]) => {
        const variant = op.variants?.[shapeIndex(plan, op, version) - 1];
        const { variants: _, ...own } = op;
        return [
          id,
          {
            ...own,
            path: `${prefix}${op.path}`,
            ...(variant?.request ? { request: variant.request } : {}),
            ...(variant?.responses ? { responses: variant.responses } : {}),
            ...(deprecated && !op.deprecated ? { deprecated: true } : {}),
          },
        ];
      }),
  );
  const versioning = contract.versioning && {
    ...contract.versioning,
    current: version,
    required: plan.required || version !== plan.current,
  };
  const resources = resourcesOf(contract, operations);
  return { ...contract, resources, operations, versioning };
}

/**
 * Part 2's resources as one version has them: those its operations, the events and the
 * error types reach, and those no operation of any version reaches (a resource of part 2
 * alone). A resource only other versions' operations reach is not this version's.
 */
function resourcesOf(
  contract: Contract,
  operations: Readonly<Record<string, Operation>>,
): Contract["resources"] {
  const allShapes = Object.values(contract.operations).flatMap(operationShapes);
  const schemasOf = (ops: readonly Operation[], withParts: boolean) =>
    declaredSchemas({
      ...contract,
      resources: {},
      operations: Object.fromEntries(ops.map((op, i) => [i, op])),
      ...(withParts ? {} : { events: {}, errors: {} }),
    });
  const anyVersion = reachableSchemas(schemasOf(allShapes, false));
  const alone = Object.values(contract.resources)
    .map(schemaOf)
    .filter((schema) => !anyVersion.has(schema));
  const kept = reachableSchemas([...schemasOf(Object.values(operations), true), ...alone]);
  return Object.fromEntries(
    Object.entries(contract.resources).filter(([, schema]) => kept.has(schemaOf(schema))),
  );
}
