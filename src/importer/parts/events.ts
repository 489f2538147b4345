/**
 * Part 6: events, from `webhooks` and from each operation's `callbacks` (delivered by POST,
 * as JSON, in the Standard Webhooks envelope unless the payload is one already). The
 * service's own document wraps each payload in the envelope and marks it; any other
 * document's body is the payload.
 */

import { ENVELOPE, PLATFORM } from "../../contract-language/document-marks";
import { bodyKind } from "../../contract-language/media-types";
import { isEnvelope } from "../event-envelopes";
import { lazyCode, literal, propertyKey, type SchemaWriter } from "../schema-code";
import { child, follow, isObject, type Json } from "../source";
import {
  counted,
  fileWriter,
  type ImportContext,
  type PartCode,
  responseKey,
  strings,
} from "./context";

/** An event's payload as the document gives it: its media object and, if served here, the envelope's members. */
interface Payload {
  readonly media: Json;
  readonly mediaPointer: string;
  readonly envelope: Json | undefined;
}

/** Part 6's events as webhooks and callbacks are read. */
export class Events {
  readonly #ctx: ImportContext;
  readonly #writer: ReturnType<typeof fileWriter>;
  readonly #lines: string[] = [];
  readonly #names = new Set<string>();

  constructor(ctx: ImportContext) {
    this.#ctx = ctx;
    this.#writer = fileWriter(ctx);
  }

  /** `name`, or `name2`, `name3`… when an event has it already. */
  uniqueName(name: string): string {
    let eventName = name;
    for (let n = 2; this.#names.has(eventName); n += 1) eventName = `${name}${n}`;
    return eventName;
  }

  /** One event from a webhook or callback operation. */
  add(name: string, op: Json, pointer: string): void {
    const fields = this.#head(name, op, pointer);
    const payload = this.#payload(op, pointer);
    fields.push(...this.#delivery(name, op, payload));
    const examples = this.#examples(payload);
    if (examples) fields.push(`examples: ${examples}`);
    const responses = this.#responses(op, pointer);
    if (responses.length > 0) fields.push(`responses: { ${responses.join(", ")} }`);
    this.#losses(op, pointer);
    this.#lines.push(`${propertyKey(name)}: { ${fields.join(", ")} },`);
    this.#names.add(name);
  }

  /**
   * The webhooks of the document, each by POST, each on its own: one that cannot be
   * converted is kept in the pass's units, to be left out of the next.
   */
  addWebhooks(): void {
    const { document, findings, units } = this.#ctx;
    const webhooks = isObject(document.webhooks) ? document.webhooks : {};
    for (const [name, rawItem] of Object.entries(webhooks)) {
      const pointer = child("#", "webhooks", name);
      const itemCause = units.leftOut.get(pointer);
      if (itemCause !== undefined) findings.lost(pointer, `left out: ${itemCause}`);
      const item =
        itemCause === undefined
          ? units.convert(pointer, () => follow(document, rawItem, pointer).node)
          : undefined;
      if (!isObject(item)) continue;
      for (const [method, op] of Object.entries(item)) {
        if (!isObject(op)) continue;
        const at = child(pointer, method);
        const cause = units.leftOut.get(at);
        if (method !== "post")
          findings.lost(at, `a webhook by ${method.toUpperCase()}: events are delivered by POST`);
        else if (cause !== undefined) findings.lost(at, `left out: ${cause}`);
        else units.convert(at, () => this.add(this.uniqueName(name), op, at));
      }
    }
  }

  /** Part 6's file; none without an event. */
  part(): PartCode | undefined {
    if (this.#lines.length === 0) return undefined;
    return {
      body: `export const events = {\n${this.#lines.join("\n")}\n} as const satisfies Readonly<Record<string, EventDeclaration>>;`,
      count: this.#lines.length,
      summary: counted(this.#lines.length, "event"),
      uses: this.#writer.context.uses,
      referenced: this.#writer.context.referenced,
    };
  }

  #head(name: string, op: Json, pointer: string): string[] {
    const fields: string[] = [];
    if (typeof op.summary === "string") fields.push(`summary: ${literal(op.summary)}`);
    if (typeof op.description === "string") fields.push(`description: ${literal(op.description)}`);
    if (Array.isArray(op.tags) && op.tags.length > 0)
      fields.push(`tags: ${literal(strings(op.tags))}`);
    if (typeof op.operationId === "string" && op.operationId !== name)
      this.#ctx.findings.changed(
        child(pointer, "operationId"),
        `operationId ${op.operationId}: the event is named ${name}`,
      );
    return fields;
  }

  /** The JSON body of the operation (other media types are reported), and its envelope if served here. */
  #payload(op: Json, pointer: string): Payload {
    const { document, findings } = this.#ctx;
    const body = follow(document, op.requestBody, child(pointer, "requestBody"));
    const content = isObject(body.node) && isObject(body.node.content) ? body.node.content : {};
    const json = Object.entries(content).find(([type]) => bodyKind(type) === "json");
    for (const [type] of Object.entries(content))
      if (type !== json?.[0])
        findings.lost(
          child(pointer, "requestBody", "content", type),
          `payload as ${type}: events are delivered as JSON`,
        );
    const media = isObject(json?.[1]) ? (json[1] as Json) : {};
    const mediaPointer = child(pointer, "requestBody", "content", json?.[0] ?? "application/json");
    const envelope =
      isObject(media.schema) &&
      media.schema[PLATFORM] === "standard-webhooks-envelope" &&
      isObject(media.schema.properties)
        ? media.schema.properties
        : undefined;
    return { media, mediaPointer, envelope };
  }

  /** Whether deliveries carry the payload as it is or in the envelope, and its schema. */
  #delivery(name: string, op: Json, { media, mediaPointer, envelope }: Payload): string[] {
    const { document, findings, ours } = this.#ctx;
    const fields: string[] = [];
    const schemaPointer = child(mediaPointer, "schema");
    // A payload that already is an envelope ({ type, created_at, data }) is sent as it is:
    // wrapped again, a receiver written for the source would read data.data.
    const bare = ours
      ? op[ENVELOPE] === "payload"
      : !envelope && isEnvelope(document, media.schema, schemaPointer);
    if (bare) {
      fields.push('envelope: "payload"');
      if (!ours)
        findings.changed(
          schemaPointer,
          `${name}: its payload is an envelope already (a type and its data): each delivery carries it as it is, with the Standard Webhooks headers`,
        );
    } else if (!envelope && media.schema !== undefined)
      findings.changed(
        schemaPointer,
        `${name}: each delivery carries this payload as the data of the Standard Webhooks envelope (type, timestamp, data)`,
      );
    const payload = envelope ? envelope.data : media.schema;
    const payloadPointer = envelope ? child(schemaPointer, "properties", "data") : schemaPointer;
    const writer: SchemaWriter = this.#writer.writer;
    fields.push(
      `payload: ${lazyCode(payload === undefined ? "z.unknown()" : writer.schema(payload, payloadPointer, "json"))}`,
    );
    return fields;
  }

  /** The payload's examples; the service's own examples show the whole envelope, whose data is the payload. */
  #examples({ media, mediaPointer, envelope }: Payload): string | undefined {
    const entries: string[] = [];
    if ("example" in media)
      entries.push(
        `example: ${literal({ value: envelope && isObject(media.example) ? media.example.data : media.example })}`,
      );
    if (isObject(media.examples))
      for (const [exampleName, raw] of Object.entries(media.examples)) {
        const at = child(mediaPointer, "examples", exampleName);
        const { node } = follow(this.#ctx.document, raw, at);
        if (!isObject(node) || !("value" in node)) continue;
        const value: Json = {};
        for (const key of ["summary", "description", "value"])
          if (key in node) value[key] = node[key];
        if (envelope && isObject(node.value) && "data" in node.value) value.value = node.value.data;
        entries.push(`${propertyKey(exampleName)}: ${literal(value)}`);
      }
    return entries.length > 0 ? `{ ${entries.join(", ")} }` : undefined;
  }

  /** A receiver's answers: their status and description only. */
  #responses(op: Json, pointer: string): string[] {
    const { document, findings } = this.#ctx;
    const responses: string[] = [];
    if (!isObject(op.responses)) return responses;
    for (const [status, raw] of Object.entries(op.responses)) {
      const { node } = follow(document, raw, child(pointer, "responses", status));
      const key = responseKey(status);
      if (!key || !isObject(node)) {
        findings.lost(child(pointer, "responses", status), `response ${status}`);
        continue;
      }
      responses.push(`${key}: { description: ${literal(String(node.description ?? ""))} }`);
      if (isObject(node.content) || isObject(node.headers))
        findings.lost(
          child(pointer, "responses", status),
          "what a receiver's answer carries: only its status and description are kept",
        );
    }
    return responses;
  }

  /** What a webhook operation has that deliveries do not carry. */
  #losses(op: Json, pointer: string): void {
    const { document, findings } = this.#ctx;
    // `security: []` says what the service serves anyway: no scheme of part 5 applies.
    const signatureHeaders = (list: unknown) =>
      Array.isArray(list) &&
      list.every((p) => {
        const { node } = follow(document, p, pointer);
        return (
          isObject(node) &&
          node.in === "header" &&
          ["webhook-id", "webhook-timestamp", "webhook-signature"].includes(String(node.name))
        );
      });
    for (const key of ["parameters", "security", "callbacks", "servers"])
      if (
        key in op &&
        !(key === "security" && Array.isArray(op.security) && op.security.length === 0) &&
        !(key === "parameters" && signatureHeaders(op.parameters))
      )
        findings.lost(
          child(pointer, key),
          `${key} of a webhook: deliveries carry the platform's signature headers`,
        );
  }
}
