/**
 * The rule of test/tidyPrototype.test.ts, on the type checker: every `obj[key]` (read, write or
 * `key in obj`) whose key is typed `string` — not a literal union, not a number — on something
 * that is not an array, a string or a typed array is a lookup that reaches Object.prototype when
 * the key is `constructor`, `toString` or `__proto__` (and a write with `__proto__` replaces the
 * object's prototype). Such a lookup is reported unless the code shows why it is own:
 * - the key is an own key of that same object (`for (const k of Object.keys(o)) … o[k]`, also
 *   through a `const keys = Object.keys(o).sort()` and `keys[i]`);
 * - it sits under `hasOwn(o, k)` (core/json.ts, `Object.hasOwn`, `hasOwnProperty.call`, or a
 *   local `(o, k) => Object.hasOwn(o, k) && …`): in the condition of a `?:`, an `if` or `&&`, or
 *   after an `if (… !hasOwn(o, k) …) return` before it;
 * - the object is a local made by `Object.create(null)`;
 * - the key cannot name a prototype member: drawn from a literal list of strings, a constant of
 *   the names table (api/names.ts), or a template whose literal head no member name starts with;
 * - it is `delete o[k]`, which only ever touches own properties.
 * Anything else is fixed (getOwn / setOwn / a Map / a null-prototype map) or audited by name.
 */
import ts from 'typescript';
import { relative } from 'node:path';

export interface Lookup {
  /** Path relative to the scanned root, `/`-separated. */
  readonly file: string;
  readonly line: number;
  /** The expression, whitespace removed (`world.objects[resource]`, `kindin o`). */
  readonly expr: string;
}

const protoNames = Object.getOwnPropertyNames(Object.prototype);
const keyListMethods = ['sort', 'filter', 'slice', 'reverse', 'toSorted'];
const iterationMethods = ['map', 'filter', 'forEach', 'some', 'every', 'flatMap', 'find', 'findIndex', 'reduce'];

const text = (n: ts.Node): string => n.getText().replace(/\s+/g, '');

function strip(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
  return e;
}

/** `o ?? {}` and `o || {}` stand for `o`. */
function orEmpty(e: ts.Expression): ts.Expression {
  e = strip(e);
  if (ts.isBinaryExpression(e) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(e.operatorToken.kind)) {
    const r = strip(e.right);
    if (ts.isObjectLiteralExpression(r) && r.properties.length === 0) return strip(e.left);
  }
  return e;
}

/** Lists the scanned sources of `program` under `root` (the rest: libraries, fixtures elsewhere). */
export function prototypeLookups(program: ts.Program, root: string, only?: (fileName: string) => boolean): Lookup[] {
  const checker = program.getTypeChecker();

  const constInitializer = (id: ts.Identifier): ts.Expression | undefined => {
    const d = checker.getSymbolAtLocation(id)?.valueDeclaration;
    if (d === undefined || !ts.isVariableDeclaration(d) || d.initializer === undefined) return undefined;
    return ts.isVariableDeclarationList(d.parent) && (d.parent.flags & ts.NodeFlags.Const) !== 0 ? d.initializer : undefined;
  };

  /** The object whose own keys `e` lists (`Object.keys(o)`, possibly sorted or filtered), as text. */
  const keysOf = (e: ts.Expression, depth = 0): string | null => {
    e = strip(e);
    if (ts.isIdentifier(e) && depth < 3) {
      const init = constInitializer(e);
      return init === undefined ? null : keysOf(init, depth + 1);
    }
    while (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && keyListMethods.includes(e.expression.name.text)) e = strip(e.expression.expression);
    if (ts.isCallExpression(e) && text(e.expression) === 'Object.keys' && e.arguments.length === 1) return text(orEmpty(e.arguments[0]!));
    return null;
  };

  /** Whether `e` is a list of string literals (inline or a `const`), possibly sorted or filtered. */
  const literalList = (e: ts.Expression, depth = 0): boolean => {
    e = strip(e);
    while (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && keyListMethods.includes(e.expression.name.text)) e = strip(e.expression.expression);
    if (ts.isArrayLiteralExpression(e)) return e.elements.every((x) => ts.isStringLiteralLike(x));
    if (ts.isIdentifier(e) && depth < 2) {
      const init = constInitializer(e);
      return init !== undefined && literalList(init, depth + 1);
    }
    return false;
  };

  /** Where an identifier's values come from: the iterated list of a for-of or of an array method's callback. */
  const iteratedBy = (k: ts.Identifier): ts.Expression | undefined => {
    const d = checker.getSymbolAtLocation(k)?.valueDeclaration;
    if (d === undefined) return undefined;
    if (ts.isVariableDeclaration(d) && ts.isVariableDeclarationList(d.parent) && ts.isForOfStatement(d.parent.parent)) return d.parent.parent.expression;
    if (ts.isParameter(d) && (ts.isArrowFunction(d.parent) || ts.isFunctionExpression(d.parent)) && d.parent.parameters[0] === d) {
      const call = d.parent.parent;
      if (ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && iterationMethods.includes(call.expression.name.text)) return call.expression.expression;
    }
    return undefined;
  };

  const ownKeyOf = (k: ts.Expression, obj: string, depth = 0): boolean => {
    k = strip(k);
    if (ts.isElementAccessExpression(k)) return keysOf(k.expression) === obj;
    if (!ts.isIdentifier(k)) return false;
    const source = iteratedBy(k);
    if (source !== undefined) return keysOf(source) === obj;
    const init = constInitializer(k);
    return init !== undefined && depth < 2 && ownKeyOf(init, obj, depth + 1);
  };

  const unnameable = (k: ts.Expression): boolean => {
    k = strip(k);
    if (ts.isTemplateExpression(k)) return k.head.text !== '' && !protoNames.some((p) => p.startsWith(k.head.text));
    if (ts.isPropertyAccessExpression(k)) {
      const decl = checker.getTypeAtLocation(k.expression).getSymbol()?.declarations?.[0];
      return decl !== undefined && ts.isInterfaceDeclaration(decl) && decl.name.text === 'Names' && decl.getSourceFile().fileName.endsWith('/api/names.ts');
    }
    if (!ts.isIdentifier(k)) return false;
    const source = iteratedBy(k);
    return source !== undefined && literalList(source);
  };

  const ownCheckCallee = (callee: ts.Expression): boolean => /(^|\.)hasOwn$/.test(text(callee)) || text(callee).endsWith('hasOwnProperty.call');

  /** A local two-parameter function whose body is, first of all, an own check of its parameters (`(o, k) => Object.hasOwn(o, k) && …`). */
  const ownCheckFunction = (callee: ts.Expression): boolean => {
    if (!ts.isIdentifier(callee)) return false;
    const d = checker.getSymbolAtLocation(callee)?.valueDeclaration;
    const f = d !== undefined && ts.isVariableDeclaration(d) ? d.initializer : d;
    if (f === undefined || !(ts.isArrowFunction(f) || ts.isFunctionExpression(f) || ts.isFunctionDeclaration(f)) || f.parameters.length !== 2 || f.body === undefined) return false;
    let body: ts.Node = f.body;
    if (ts.isBlock(body) && body.statements.length === 1 && ts.isReturnStatement(body.statements[0]!) && body.statements[0].expression !== undefined) body = body.statements[0].expression;
    while (ts.isBinaryExpression(body) && body.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) body = body.left;
    const params = f.parameters.map((p) => p.name.getText());
    return ts.isCallExpression(body) && ownCheckCallee(body.expression) && body.arguments.length === 2 && text(strip(body.arguments[0]!)) === params[0] && text(strip(body.arguments[1]!)) === params[1];
  };

  /** Whether `cond` contains an own check of `obj`/`key` (negated when `negated`). */
  const checks = (cond: ts.Node, obj: string, key: string, negated: boolean): boolean => {
    let found = false;
    const visit = (n: ts.Node): void => {
      if (found) return;
      if (ts.isCallExpression(n) && n.arguments.length === 2) {
        const isCheck = ownCheckCallee(n.expression) || ownCheckFunction(n.expression);
        if (isCheck && text(strip(n.arguments[0]!)) === obj && text(strip(n.arguments[1]!)) === key) {
          const isNegated = ts.isPrefixUnaryExpression(n.parent) && n.parent.operator === ts.SyntaxKind.ExclamationToken;
          if (isNegated === negated) found = true;
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(cond);
    return found;
  };

  const exits = (s: ts.Statement): boolean => ts.isReturnStatement(s) || ts.isContinueStatement(s) || ts.isThrowStatement(s) || ts.isBreakStatement(s) || (ts.isBlock(s) && s.statements.length > 0 && exits(s.statements[s.statements.length - 1]!));

  const guarded = (e: ts.Node, obj: string, key: string): boolean => {
    let child: ts.Node = e;
    for (let p = e.parent; p !== undefined && !ts.isSourceFile(p); child = p, p = p.parent) {
      if (ts.isConditionalExpression(p) && child === p.whenTrue && checks(p.condition, obj, key, false)) return true;
      if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && child === p.right && checks(p.left, obj, key, false)) return true;
      if (ts.isIfStatement(p) && child === p.thenStatement && checks(p.expression, obj, key, false)) return true;
      if (ts.isBlock(p)) {
        for (const s of p.statements) {
          if (s === child) break;
          if (ts.isIfStatement(s) && s.elseStatement === undefined && exits(s.thenStatement) && checks(s.expression, obj, key, true)) return true;
        }
      }
      if (ts.isFunctionLike(p)) break;
    }
    return false;
  };

  const nullPrototype = (x: ts.Expression): boolean => {
    if (!ts.isIdentifier(x)) return false;
    const d = checker.getSymbolAtLocation(x)?.valueDeclaration;
    return d !== undefined && ts.isVariableDeclaration(d) && d.initializer !== undefined && /^Object\.(create\(null\)|assign\(Object\.create\(null\))/.test(text(strip(d.initializer)));
  };

  const arrayLike = (t: ts.Type): boolean =>
    checker.isArrayType(t) || checker.isTupleType(t) || (t.isUnion() && t.types.every(arrayLike)) || (t.getFlags() & ts.TypeFlags.StringLike) !== 0 || /^(Readonly)?(Uint8|Int8|Uint16|Int16|Uint32|Int32|Float32|Float64)Array\b|^Buffer\b/.test(checker.typeToString(t));
  const openKey = (t: ts.Type): boolean => (t.isUnion() ? t.types.some(openKey) : (t.getFlags() & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0);

  const out: Lookup[] = [];
  for (const sf of program.getSourceFiles()) {
    if (only !== undefined ? !only(sf.fileName) : !sf.fileName.startsWith(root)) continue;
    const report = (n: ts.Node): void => {
      out.push({ file: relative(root, sf.fileName).replaceAll('\\', '/'), line: sf.getLineAndCharacterOfPosition(n.getStart()).line + 1, expr: text(n) });
    };
    const visit = (n: ts.Node): void => {
      if (ts.isElementAccessExpression(n)) {
        const key = strip(n.argumentExpression);
        const target = checker.getNonNullableType(checker.getTypeAtLocation(n.expression));
        if (!ts.isStringLiteralLike(key) && !ts.isNumericLiteral(key) && openKey(checker.getTypeAtLocation(n.argumentExpression)) && !arrayLike(target)) {
          const obj = strip(n.expression);
          const own = ownKeyOf(key, text(obj)) || guarded(n, text(obj), text(key)) || nullPrototype(obj);
          if (!own && !unnameable(key) && !ts.isDeleteExpression(n.parent)) report(n);
        }
      }
      if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.InKeyword && !ts.isStringLiteralLike(n.left) && openKey(checker.getTypeAtLocation(n.left))) {
        if (!arrayLike(checker.getNonNullableType(checker.getTypeAtLocation(n.right))) && !unnameable(n.left)) report(n);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}
