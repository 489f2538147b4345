/**
 * The source transform of the served contract (served-contract.ts says what it leaves out
 * and why): one module of src/contract as JavaScript, by TypeScript's own syntax tree and
 * transpiler. Loaded only when a module changed since the last build, since TypeScript
 * takes most of a second to load.
 */
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { shareSchemas } from "./share-schemas";

/** Metadata members that only document a schema (JSON Schema 2020-12 §9, OpenAPI 3.1 §4.8.24). */
const DOCUMENTING_META = new Set([
  "description",
  "title",
  "$comment",
  "externalDocs",
  "examples",
  "example",
]);
/** Calls whose object argument is a schema's metadata, and which argument it is. */
const META_ARGUMENT: Readonly<Record<string, number>> = { meta: 0, register: 1 };

const nameOf = (name: ts.PropertyName): string | undefined =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)
    ? name.text
    : undefined;

/** The name a call is made by: `meta` for `z.meta(…)`, `x.meta(…)` and `meta(…)`. */
function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** The names a module binds zod's namespace to (`import * as z from "zod/mini"`, `import { z } from "zod"`). */
function zodNamespaces(file: ts.SourceFile): ReadonlySet<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    const from = statement.moduleSpecifier.text;
    if (from !== "zod" && !from.startsWith("zod/")) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    else if (bindings)
      for (const element of bindings.elements)
        if ((element.propertyName ?? element.name).text === "z") names.add(element.name.text);
  }
  return names;
}

const isEmptyObject = (node: ts.Expression | undefined) =>
  node !== undefined && ts.isObjectLiteralExpression(node) && node.properties.length === 0;

/** `meta({})`: metadata left with no member, which only registers the schema under nothing. */
const isEmptyMeta = (node: ts.Expression) =>
  ts.isCallExpression(node) &&
  calleeName(node) === "meta" &&
  node.arguments.length === 1 &&
  isEmptyObject(node.arguments[0]);

/** Whether an expression is text only: a string, a template, or a concatenation of them. */
function isText(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node)) return isText(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  return (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind === ts.SyntaxKind.PlusToken &&
    isText(node.left) &&
    isText(node.right)
  );
}

function withoutMembers(
  factory: ts.NodeFactory,
  literal: ts.ObjectLiteralExpression,
  leaveOut: (name: string, value: ts.Expression) => "keep" | "drop" | "empty",
): ts.ObjectLiteralExpression {
  const kept: ts.ObjectLiteralElementLike[] = [];
  for (const member of literal.properties) {
    const name = ts.isPropertyAssignment(member) ? nameOf(member.name) : undefined;
    const verdict =
      name !== undefined && ts.isPropertyAssignment(member)
        ? leaveOut(name, member.initializer)
        : "keep";
    if (verdict === "drop") continue;
    kept.push(
      verdict === "empty" && ts.isPropertyAssignment(member)
        ? factory.updatePropertyAssignment(member, member.name, factory.createStringLiteral(""))
        : member,
    );
  }
  return factory.updateObjectLiteralExpression(literal, kept);
}

/** The transformer: documentation out of metadata and declarations, as the module's comment says. */
export function documentationStripper(keepExamples: boolean): ts.TransformerFactory<ts.SourceFile> {
  return (context) => {
    const { factory } = context;
    const metaMember = (name: string) =>
      DOCUMENTING_META.has(name) || name.startsWith("x-") ? "drop" : "keep";
    const declarationMember = (name: string, value: ts.Expression) => {
      if ((name === "description" || name === "summary") && isText(value)) return "empty";
      if (name === "externalDocs" || name === "tags" || (name === "examples" && !keepExamples))
        return "drop";
      return "keep";
    };
    let zod: ReadonlySet<string> = new Set();
    // The schema a call is made on (`s` of `s.check(…)`), unless it is zod's namespace itself.
    const receiverOf = (callee: ts.Expression) =>
      ts.isPropertyAccessExpression(callee) &&
      !(ts.isIdentifier(callee.expression) && zod.has(callee.expression.text))
        ? callee.expression
        : undefined;
    // `data`: whether the node is part of the contract's declarations (no call in between).
    const visit =
      (data: boolean) =>
      (node: ts.Node): ts.Node => {
        if (ts.isCallExpression(node)) {
          const name = calleeName(node);
          const metaAt = name === undefined ? undefined : META_ARGUMENT[name];
          const args = node.arguments.map((argument, i) => {
            const inner = ts.visitNode(argument, visit(name === "defineContract")) as ts.Expression;
            if (i === metaAt && ts.isObjectLiteralExpression(inner))
              return withoutMembers(factory, inner, metaMember);
            if (name === "describe" && node.arguments.length === 1 && isText(argument))
              return factory.createStringLiteral("");
            return inner;
          });
          const callee = ts.visitNode(node.expression, visit(false)) as ts.LeftHandSideExpression;
          // Metadata the stripping left empty goes too: each `.check(…)` and `.meta(…)` makes
          // the schema again (zod's clone), which a big API's first requests pay for.
          const receiver = receiverOf(callee);
          const kept = name === "check" ? args.filter((argument) => !isEmptyMeta(argument)) : args;
          if (receiver && name === "meta" && args.length === 1 && isEmptyObject(args[0]))
            return receiver;
          if (receiver && name === "check" && kept.length === 0) return receiver;
          return factory.updateCallExpression(
            node,
            callee,
            node.typeArguments,
            kept.length ? kept : args,
          );
        }
        if (
          ts.isArrowFunction(node) ||
          ts.isFunctionExpression(node) ||
          ts.isFunctionDeclaration(node) ||
          ts.isMethodDeclaration(node) ||
          ts.isClassLike(node)
        )
          return ts.visitEachChild(node, visit(false), context);
        const visited = ts.visitEachChild(node, visit(data), context);
        return data && ts.isObjectLiteralExpression(visited)
          ? withoutMembers(factory, visited, declarationMember)
          : visited;
      };
    return (file) => {
      zod = zodNamespaces(file);
      return ts.visitEachChild(file, visit(true), context);
    };
  };
}

/** A relative import of `file` (in CONTRACT_DIR) as its copy in `toDir` must write it. */
function rewritten(specifier: string, file: string, fromDir: string, toDir: string): string {
  if (!specifier.startsWith(".")) return specifier;
  const target = resolve(dirname(file), specifier);
  const inside = !relative(fromDir, target).startsWith("..");
  if (inside) return specifier;
  const path = relative(dirname(join(toDir, relative(fromDir, file))), target).replaceAll(
    "\\",
    "/",
  );
  return path.startsWith(".") ? path : `./${path}`;
}

/** Relative imports that leave the contract's directory, pointed at the same modules from the copy. */
function importRewriter(
  file: string,
  fromDir: string,
  toDir: string,
): ts.TransformerFactory<ts.SourceFile> {
  return (context) => {
    const { factory } = context;
    const visit = (node: ts.Node): ts.Node => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        const to = factory.createStringLiteral(
          rewritten(node.moduleSpecifier.text, file, fromDir, toDir),
        );
        return ts.isImportDeclaration(node)
          ? factory.updateImportDeclaration(
              node,
              node.modifiers,
              node.importClause,
              to,
              node.attributes,
            )
          : factory.updateExportDeclaration(
              node,
              node.modifiers,
              node.isTypeOnly,
              node.exportClause,
              to,
              node.attributes,
            );
      }
      return ts.visitEachChild(node, visit, context);
    };
    return (source) => ts.visitEachChild(source, visit, context);
  };
}

/**
 * One module of the contract as the Worker serves it: JavaScript, its documentation left
 * out, and the schemas one holds built when a value reaches them, each written once
 * (share-schemas.ts).
 */
export function servedModule(
  source: string,
  file: string,
  fromDir: string,
  toDir: string,
  keepExamples: boolean,
): string {
  const { outputText } = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      removeComments: true,
      sourceMap: false,
    },
    transformers: {
      before: [documentationStripper(keepExamples), importRewriter(file, fromDir, toDir)],
    },
  });
  // The helper the second transform may import, as the copy's own imports write it.
  const reference = fileURLToPath(new URL("../contract-language/reference", import.meta.url));
  const fromSource = relative(dirname(file), reference).replaceAll("\\", "/");
  const specifier = rewritten(
    fromSource.startsWith(".") ? fromSource : `./${fromSource}`,
    file,
    fromDir,
    toDir,
  );
  return shareSchemas(outputText, file, specifier);
}
