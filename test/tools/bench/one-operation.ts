/**
 * The one-operation document the scale section compares a large contract's simple operation
 * with: the same document cut down to that one operation and the components it reaches
 * (`$ref`s followed transitively), its security schemes and everything else at the top
 * level kept, so the operation is imported, validated and answered the same way, alone.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Every local `$ref` reached from `start`, following each to its target. */
function reachable(document: Json, start: unknown): Set<string> {
  const seen = new Set<string>();
  const stack: unknown[] = [start];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isObject(node)) {
      const ref = node.$ref;
      if (typeof ref === "string" && ref.startsWith("#/") && !seen.has(ref)) {
        seen.add(ref);
        stack.push(targetOf(document, ref));
      }
      // A discriminator's mapping names schemas by pointer too.
      const mapping = isObject(node.mapping) ? Object.values(node.mapping) : [];
      for (const target of mapping)
        if (typeof target === "string" && target.startsWith("#/") && !seen.has(target)) {
          seen.add(target);
          stack.push(targetOf(document, target));
        }
      stack.push(...Object.values(node));
    }
  }
  return seen;
}

function targetOf(document: Json, pointer: string): unknown {
  let node: unknown = document;
  for (const raw of pointer.slice(2).split("/")) {
    const token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    node = isObject(node) ? node[token] : undefined;
  }
  return node;
}

/** `document` with only `method path` and what it reaches; throws if it has no such operation. */
export function oneOperationDocument(document: Json, path: string, method: string): Json {
  const item = isObject(document.paths) ? document.paths[path] : undefined;
  const operation = isObject(item) ? item[method.toLowerCase()] : undefined;
  if (!isObject(item) || !isObject(operation))
    throw new Error(`the document has no ${method.toUpperCase()} ${path}`);
  const kept: Json = { [method.toLowerCase()]: operation };
  for (const shared of ["parameters", "servers", "summary", "description"])
    if (shared in item) kept[shared] = item[shared];
  const refs = reachable(document, kept);
  const components: Json = {};
  const source = isObject(document.components) ? document.components : {};
  for (const [kind, entries] of Object.entries(source)) {
    if (!isObject(entries)) continue;
    const names = Object.keys(entries).filter(
      (name) =>
        kind === "securitySchemes" ||
        refs.has(`#/components/${kind}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`),
    );
    if (names.length > 0)
      components[kind] = Object.fromEntries(names.map((name) => [name, entries[name]]));
  }
  const { webhooks: _webhooks, paths: _paths, components: _components, ...top } = document;
  return { ...top, paths: { [path]: kept }, components };
}
