/**
 * What part 4's file is written with: its own schema writer, its shared declarations, and
 * whether a body or an answer is XML (so the entry must pass the XML codec).
 */
import { Identifiers } from "../names";
import type { SchemaContext, SchemaWriter } from "../schema-code";
import { fileWriter, type ImportContext } from "./context";
import { Shared } from "./shared";

export interface Endpoint {
  readonly ctx: ImportContext;
  readonly writer: SchemaWriter;
  readonly context: SchemaContext;
  readonly shared: Shared;
  /** Set once a body or an answer is XML. */
  xml: boolean;
}

/** Part 4's writer; its shared consts take no identifier of a component schema. */
export function endpointWriter(ctx: ImportContext): Endpoint {
  const { writer, context } = fileWriter(ctx);
  const ids = new Identifiers();
  for (const id of ctx.identifiers.values()) ids.take(id, "");
  return { ctx, writer, context, shared: new Shared(ids), xml: false };
}
