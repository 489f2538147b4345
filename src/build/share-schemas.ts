/**
 * The second transform of the served contract (served-contract.ts): where one schema holds
 * another, a named schema's getter called there (`Pet()`) becomes a reference to it
 * (`reference(Pet)`, src/contract-language/reference.ts), built when a value first reaches
 * it, and a schema written there more than once in a module is built once, by a function
 * each place calls. zod builds a schema node in several microseconds, and nothing else of a
 * first request costs as much. What is shared or deferred never changes an answer
 * (test/build/served-contract.node.test.ts). The numbers, and which schemas are shared:
 * src/engine/README.md, "What the build writes".
 */
import ts from "typescript";

/**
 * Where a zod builder's call holds a schema: its argument `at`, or the items (`in: "items"`)
 * or members' values (`in: "members"`) of that argument; `whole` where zod reads the schema
 * whole when the holder is built or checks (a record's keys), so it is shared, never deferred.
 */
interface Slot {
  readonly at: number;
  readonly in?: "items" | "members";
  readonly whole?: true;
}

const FIRST: readonly Slot[] = [{ at: 0 }];
const BOTH: readonly Slot[] = [{ at: 0 }, { at: 1 }];
const KEYED: readonly Slot[] = [{ at: 0, whole: true }, { at: 1 }];
const OPTIONS: readonly Slot[] = [{ at: 0, in: "items" }];
const MEMBERS: readonly Slot[] = [{ at: 0, in: "members" }];
/** zod's builders, by where each holds schemas (an extended object, its first argument, is read whole: not listed). */
const HOLDERS: Readonly<Record<string, readonly Slot[]>> = {
  optional: FIRST,
  exactOptional: FIRST,
  nullable: FIRST,
  nullish: FIRST,
  nonoptional: FIRST,
  readonly: FIRST,
  array: FIRST,
  set: FIRST,
  _default: FIRST,
  prefault: FIRST,
  catch: FIRST,
  intersection: BOTH,
  pipe: BOTH,
  map: KEYED,
  record: KEYED,
  partialRecord: KEYED,
  looseRecord: KEYED,
  tuple: [{ at: 0, in: "items" }, { at: 1 }],
  union: OPTIONS,
  xor: OPTIONS,
  discriminatedUnion: [{ at: 1, in: "items" }],
  object: MEMBERS,
  strictObject: MEMBERS,
  looseObject: MEMBERS,
  extend: [{ at: 1, in: "members" }],
  safeExtend: [{ at: 1, in: "members" }],
};
/** Methods that change the object they are called on (a registry's `register` keeps that very schema). */
const MUTATING = new Set(["register", "add", "set", "delete", "clear", "push"]);

interface Names {
  /** Local names of zod's namespace (`z`). */
  readonly zod: ReadonlySet<string>;
  /** Local names of zod's builders imported by name, by the builder's own name. */
  readonly builders: ReadonlyMap<string, string>;
  /** Top-level `let` and `var` names: their value may change. */
  readonly mutable: ReadonlySet<string>;
  /** Every identifier the module writes, so the names added are new. */
  readonly used: ReadonlySet<string>;
}

function namesOf(file: ts.SourceFile): Names {
  const zod = new Set<string>();
  const builders = new Map<string, string>();
  const mutable = new Set<string>();
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const from = statement.moduleSpecifier.text;
      if (from !== "zod" && !from.startsWith("zod/")) continue;
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) zod.add(bindings.name.text);
      else if (bindings)
        for (const element of bindings.elements) {
          const imported = (element.propertyName ?? element.name).text;
          if (imported === "z") zod.add(element.name.text);
          else builders.set(element.name.text, imported);
        }
    } else if (
      ts.isVariableStatement(statement) &&
      !(statement.declarationList.flags & ts.NodeFlags.Const)
    ) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) mutable.add(declaration.name.text);
    }
  }
  const used = new Set<string>();
  const collect = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) used.add(node.text);
    ts.forEachChild(node, collect);
  };
  collect(file);
  return { zod, builders, mutable, used };
}

/** The zod builder a call makes (`object` for `z.object(…)` and for a named import of it). */
function builderOf(call: ts.CallExpression, names: Names): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return names.builders.get(callee.text);
  if (
    ts.isPropertyAccessExpression(callee) &&
    ts.isIdentifier(callee.expression) &&
    names.zod.has(callee.expression.text)
  )
    return callee.name.text;
  return undefined;
}

/** The schemas a zod builder's call holds, each with whether it may be deferred. */
function heldBy(call: ts.CallExpression, names: Names): { node: ts.Expression; defer: boolean }[] {
  const builder = builderOf(call, names);
  const slots = builder !== undefined && Object.hasOwn(HOLDERS, builder) ? HOLDERS[builder] : [];
  const held: { node: ts.Expression; defer: boolean }[] = [];
  for (const slot of slots ?? []) {
    const argument = call.arguments[slot.at];
    const defer = slot.whole !== true;
    if (argument === undefined || ts.isSpreadElement(argument)) continue;
    if (slot.in === undefined) held.push({ node: argument, defer });
    else if (slot.in === "items" && ts.isArrayLiteralExpression(argument)) {
      for (const element of argument.elements)
        if (!ts.isSpreadElement(element) && !ts.isOmittedExpression(element))
          held.push({ node: element, defer });
    } else if (slot.in === "members" && ts.isObjectLiteralExpression(argument))
      for (const member of argument.properties)
        if (ts.isPropertyAssignment(member)) held.push({ node: member.initializer, defer });
  }
  return held;
}

/** A function whose body is still the module's scope: it takes nothing and returns an expression. */
const isPlainArrow = (node: ts.Node): node is ts.ArrowFunction =>
  ts.isArrowFunction(node) && node.parameters.length === 0 && !ts.isBlock(node.body);

const isFunctionLike = (node: ts.Node) =>
  ts.isFunctionLike(node) || ts.isClassLike(node) || ts.isBlock(node);

/** `Pet()`: a name called with nothing, which is not one of zod's builders. */
function isGetterCall(node: ts.Node, names: Names): node is ts.CallExpression {
  return (
    ts.isCallExpression(node) &&
    node.arguments.length === 0 &&
    ts.isIdentifier(node.expression) &&
    !names.builders.has(node.expression.text) &&
    !names.mutable.has(node.expression.text)
  );
}

/** Whether an expression is built by calls alone, of names that cannot change, from literals. */
function isPure(node: ts.Expression, names: Names): boolean {
  if (ts.isParenthesizedExpression(node)) return isPure(node.expression, names);
  if (
    ts.isStringLiteral(node) ||
    ts.isNumericLiteral(node) ||
    ts.isBigIntLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isRegularExpressionLiteral(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    node.kind === ts.SyntaxKind.NullKeyword
  )
    return true;
  if (ts.isPrefixUnaryExpression(node))
    return ts.isNumericLiteral(node.operand) || ts.isBigIntLiteral(node.operand);
  if (ts.isIdentifier(node)) return !names.mutable.has(node.text);
  if (ts.isArrayLiteralExpression(node))
    return node.elements.every(
      (element) => !ts.isSpreadElement(element) && isPure(element as ts.Expression, names),
    );
  if (ts.isObjectLiteralExpression(node))
    return node.properties.every(
      (member) =>
        ts.isPropertyAssignment(member) &&
        !ts.isComputedPropertyName(member.name) &&
        isPure(member.initializer, names),
    );
  if (ts.isPropertyAccessExpression(node)) return isPure(node.expression, names);
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
    const callee = node.expression;
    const calleePure = ts.isIdentifier(callee)
      ? !names.mutable.has(callee.text)
      : ts.isPropertyAccessExpression(callee) &&
        !MUTATING.has(callee.name.text) &&
        isPure(callee.expression, names);
    return (
      calleePure &&
      (node.arguments ?? []).every(
        (argument) => !ts.isSpreadElement(argument) && isPure(argument, names),
      )
    );
  }
  return false;
}

/**
 * The text of a pure expression, whatever its layout: two expressions with the same text
 * build the same schema.
 */
function canonical(node: ts.Node, keyOf: (node: ts.Node) => string): string {
  if (ts.isParenthesizedExpression(node)) return keyOf(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return JSON.stringify(node.text);
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return `${keyOf(node.expression)}.${node.name.text}`;
  if (ts.isArrayLiteralExpression(node)) return `[${node.elements.map(keyOf).join(",")}]`;
  if (ts.isObjectLiteralExpression(node))
    return `{${node.properties
      .map((member) => {
        const assignment = member as ts.PropertyAssignment;
        const name = ts.isIdentifier(assignment.name)
          ? assignment.name.text
          : (assignment.name as ts.StringLiteral | ts.NumericLiteral).text;
        return `${JSON.stringify(name)}:${keyOf(assignment.initializer)}`;
      })
      .join(",")}}`;
  if (ts.isCallExpression(node))
    return `${keyOf(node.expression)}(${node.arguments.map(keyOf).join(",")})`;
  if (ts.isNewExpression(node))
    return `new ${keyOf(node.expression)}(${(node.arguments ?? []).map(keyOf).join(",")})`;
  if (ts.isPrefixUnaryExpression(node))
    return `${ts.tokenToString(node.operator)}${keyOf(node.operand)}`;
  return node.getText();
}

/** A name not used in the module, starting with `base`. */
function freshName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

/** Each named schema's getter called where a schema is held, as a reference (a new tree). */
function deferReferences(file: ts.SourceFile, names: Names, referenceName: () => string) {
  const deferred = new Set<ts.Node>();
  const findDeferred = (node: ts.Node): void => {
    if (isFunctionLike(node) && !isPlainArrow(node)) return;
    if (ts.isCallExpression(node))
      for (const held of heldBy(node, names))
        if (held.defer && isGetterCall(held.node, names)) deferred.add(held.node);
    ts.forEachChild(node, findDeferred);
  };
  findDeferred(file);
  const deferring =
    (context: ts.TransformationContext) =>
    (root: ts.SourceFile): ts.SourceFile => {
      const visit = (node: ts.Node): ts.Node =>
        deferred.has(node)
          ? context.factory.createCallExpression(
              context.factory.createIdentifier(referenceName()),
              undefined,
              [(node as ts.CallExpression).expression],
            )
          : ts.visitEachChild(node, visit, context);
      return ts.visitEachChild(root, visit, context);
    };
  return (ts.transform(file, [deferring]).transformed as [ts.SourceFile])[0];
}

/** A getter of one shared schema: its name, and the schema it builds. */
interface Getter {
  readonly name: string;
  body: ts.Expression;
}

/** Each schema written twice or more where a schema is held, as one getter; its own held schemas are shared too. */
function shareRepeated(
  file: ts.SourceFile,
  names: Names,
  taken: Set<string>,
): { file: ts.SourceFile; getters: Map<string, Getter> } {
  const keys = new Map<ts.Node, string>();
  const keyOf = (node: ts.Node): string => {
    let key = keys.get(node);
    if (key === undefined) {
      key = canonical(node, keyOf);
      keys.set(node, key);
    }
    return key;
  };
  // How often each schema that could be shared is written where a schema is held.
  const counts = new Map<string, number>();
  const holders = new Set<ts.Expression>();
  const count = (node: ts.Node): void => {
    if (isFunctionLike(node) && !isPlainArrow(node)) return;
    if (ts.isCallExpression(node))
      for (const { node: held } of heldBy(node, names)) {
        holders.add(held);
        if (isPure(held, names)) {
          const key = keyOf(held);
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      }
    ts.forEachChild(node, count);
  };
  count(file);
  const getters = new Map<string, Getter>();
  const sharing = (context: ts.TransformationContext) => {
    const { factory } = context;
    const share = (node: ts.Node): ts.Node => {
      if (isFunctionLike(node) && !isPlainArrow(node)) return node;
      if (
        ts.isExpression(node) &&
        holders.has(node) &&
        (counts.get(keyOf(node)) ?? 0) > 1 &&
        isPure(node, names)
      ) {
        const key = keyOf(node);
        let getter = getters.get(key);
        if (!getter) {
          getter = { name: freshName("shared", taken), body: node };
          getters.set(key, getter);
          getter.body = ts.visitEachChild(node, share, context);
        }
        return factory.createCallExpression(factory.createIdentifier(getter.name), undefined, []);
      }
      return ts.visitEachChild(node, share, context);
    };
    return (root: ts.SourceFile) => ts.visitEachChild(root, share, context) as ts.SourceFile;
  };
  const [shared] = ts.transform(file, [sharing]).transformed as [ts.SourceFile];
  return { file: shared, getters };
}

/**
 * What the module gains: the import of `reference` when it defers one, and each getter a
 * function declaration keeping its schema in one array, so the module's evaluation runs
 * nothing for them (a call per getter cost a large API's cold start).
 */
function addedStatements(
  getters: ReadonlyMap<string, Getter>,
  reference: string,
  referenceModule: string,
  memo: string,
): ts.Statement[] {
  const factory = ts.factory;
  const statements: ts.Statement[] = [];
  if (reference)
    statements.push(
      factory.createImportDeclaration(
        undefined,
        factory.createImportClause(
          false,
          undefined,
          factory.createNamedImports([
            factory.createImportSpecifier(
              false,
              reference === "reference" ? undefined : factory.createIdentifier("reference"),
              factory.createIdentifier(reference),
            ),
          ]),
        ),
        factory.createStringLiteral(referenceModule),
      ),
    );
  if (getters.size > 0)
    statements.push(
      factory.createVariableStatement(
        undefined,
        factory.createVariableDeclarationList(
          [
            factory.createVariableDeclaration(
              memo,
              undefined,
              undefined,
              factory.createArrayLiteralExpression([]),
            ),
          ],
          ts.NodeFlags.Const,
        ),
      ),
    );
  let index = 0;
  for (const { name, body } of getters.values()) {
    const slot = factory.createElementAccessExpression(factory.createIdentifier(memo), index++);
    statements.push(
      factory.createFunctionDeclaration(
        undefined,
        undefined,
        name,
        undefined,
        [],
        undefined,
        factory.createBlock([
          factory.createReturnStatement(
            factory.createBinaryExpression(slot, ts.SyntaxKind.QuestionQuestionEqualsToken, body),
          ),
        ]),
      ),
    );
  }
  return statements;
}

/**
 * The served module `text` (JavaScript) with references deferred and repeated schemas
 * shared; the text as it was when nothing is deferred or shared.
 */
export function shareSchemas(text: string, fileName: string, referenceModule: string): string {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const names = namesOf(file);
  const taken = new Set(names.used);
  const printer = ts.createPrinter({ removeComments: true });
  let reference = "";
  const deferred = deferReferences(file, names, () => {
    reference ||= freshName("reference", taken);
    return reference;
  });
  // Printed and read again, so each node has its text and its parent for what follows.
  const reread = ts.createSourceFile(
    fileName,
    printer.printFile(deferred),
    ts.ScriptTarget.ES2022,
    true,
    ts.ScriptKind.JS,
  );
  const { file: shared, getters } = shareRepeated(reread, names, taken);
  if (!reference && getters.size === 0) return text;
  const added = addedStatements(getters, reference, referenceModule, freshName("built", taken));
  const module = [...shared.statements];
  const firstCode = module.findIndex((statement) => !ts.isImportDeclaration(statement));
  module.splice(firstCode === -1 ? module.length : firstCode, 0, ...added);
  return printer.printFile(ts.factory.updateSourceFile(shared, module));
}
