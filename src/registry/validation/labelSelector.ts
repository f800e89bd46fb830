/**
 * Label selectors: the string syntax of `?labelSelector=` and the metav1.LabelSelector object,
 * with the lexer, parser, error wording and matching of apimachinery pkg/labels/selector.go and
 * pkg/apis/meta/v1/{helpers.go,validation/validation.go}.
 *
 * Rules (all as Kubernetes):
 * - Requirements are ANDed and kept sorted by key (stable: equal keys keep their order).
 * - `=`/`==`/`in` need the key with a listed value; `!=`/`notin` also match a missing key;
 *   `k` / `!k` test existence; `>`/`<` compare as int64 and never match a non-integer label.
 * - `in (...)` values are a set (sorted, deduplicated); `()` is the set {""}, not an error.
 * - `in`/`notin` are operators only after a key; as keys or values they are plain identifiers.
 * - A NUL character reads as Go's 0 end sentinel: it ends the token being scanned and, where a
 *   token would start, the whole selector.
 * - Errors are returned as messages (400 bodies) or FieldErrors (object form), never thrown.
 */
import { limits } from '../../core/limits.ts';
import { aggregateFieldErrors, fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { hasOwn } from '../../core/json.ts';
import { validateLabels } from './objectMeta.ts';
import { isQualifiedName, isValidLabelValue } from './names.ts';

/** Every scanning loop advances at least one character or token per turn; this bounds them all. */
const selectorStepsMax = limits.requestBodyBytesMax;

/** selection.Operator values. */
export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

export interface LabelSelector {
  /** labels.Nothing(): what a nil metav1.LabelSelector converts to. */
  readonly nothing: boolean;
  readonly requirements: readonly LabelRequirement[];
}

export type LabelSelectorParse = { ok: true; selector: LabelSelector } | { ok: false; message: string };

export const everythingSelector: LabelSelector = { nothing: false, requirements: [] };
export const nothingSelector: LabelSelector = { nothing: true, requirements: [] };

// ---------------------------------------------------------------------------------------------
// Lexer

type Token = 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

interface Item {
  readonly tok: Token;
  readonly lit: string;
}

/** Literal tokens; a Map so that identifiers such as `constructor` are never looked up on a prototype. */
const literalTokens = new Map<string, Token>([
  [')', ')'], [',', ','], ['!', '!'], ['==', '=='], ['=', '='], ['>', '>'],
  ['in', 'in'], ['<', '<'], ['!=', '!='], ['notin', 'notin'], ['(', '('],
]);

const isWhitespace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string): boolean => c.length === 1 && '=!(),><'.includes(c);

class Lexer {
  private pos = 0;
  constructor(private readonly s: string) {}

  /** Next character, or '\0' at the end (a real NUL reads the same, as in Go). */
  private read(): string {
    if (this.pos >= this.s.length) return '\0';
    return this.s[this.pos++]!;
  }

  private unread(): void {
    this.pos--;
  }

  private scanIdOrKeyword(): Item {
    let buf = '';
    for (let guard = 0; guard < selectorStepsMax; guard++) {
      const c = this.read();
      if (c === '\0') break;
      if (isSpecial(c) || isWhitespace(c)) {
        this.unread();
        break;
      }
      buf += c;
    }
    return { tok: literalTokens.get(buf) ?? 'id', lit: buf };
  }

  /** Longest run of special characters that still forms a token (`!=`, `==`, then singles). */
  private scanSpecial(): Item {
    let buf = '';
    let last: Item | undefined;
    for (let guard = 0; guard < selectorStepsMax; guard++) {
      const c = this.read();
      if (c === '\0') break;
      if (!isSpecial(c)) {
        this.unread();
        break;
      }
      buf += c;
      const tok = literalTokens.get(buf);
      if (tok !== undefined) last = { tok, lit: buf };
      else if (last !== undefined) {
        this.unread();
        break;
      }
    }
    // Every single special character is a token, so `last` is always set here.
    return last ?? { tok: 'end', lit: '' };
  }

  lex(): Item {
    let c = this.read();
    while (isWhitespace(c)) c = this.read();
    if (c === '\0') return { tok: 'end', lit: '' };
    this.unread();
    return isSpecial(c) ? this.scanSpecial() : this.scanIdOrKeyword();
  }
}

function scan(text: string): Item[] {
  const lexer = new Lexer(text);
  const items: Item[] = [];
  for (let guard = 0; guard < selectorStepsMax; guard++) {
    const item = lexer.lex();
    items.push(item);
    if (item.tok === 'end') return items;
  }
  return [{ tok: 'end', lit: '' }];
}

// ---------------------------------------------------------------------------------------------
// Requirements (labels.NewRequirement)

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** strconv.ParseInt(s, 10, 64). */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

/**
 * NewRequirement's checks, with its paths: `root` is the field path of the selector (the string
 * parser has none, so its values render as `values[0][key]`).
 */
export function newLabelRequirement(key: string, operator: LabelOperator, values: readonly string[], root = ''): Checked<LabelRequirement> {
  const at = (child: string): string => (root === '' ? child : `${root}.${child}`);
  const errs: FieldError[] = [];
  const keyMsgs = isQualifiedName(key);
  if (keyMsgs.length > 0) errs.push(fieldError.invalid(at('key'), key, keyMsgs.join('; ')));
  const valuesPath = at('values');
  // Go marshals the empty (nil) slice of these messages as null.
  const shown = values.length === 0 ? null : values;
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(fieldError.invalid(valuesPath, shown, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(fieldError.invalid(valuesPath, shown, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(fieldError.invalid(valuesPath, shown, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(fieldError.invalid(valuesPath, shown, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(fieldError.invalid(`${valuesPath}[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(fieldError.invalid(`${valuesPath}[${i}][${key}]`, v, msgs.join('; ')));
  });
  return errs.length > 0 ? { ok: false, errors: errs } : { ok: true, value: { key, operator, values: [...values] } };
}

// ---------------------------------------------------------------------------------------------
// Parser

type Context = 'keyAndOperator' | 'values';

/** Tokens that are binary operators after a key (`!` is not: `x!` is an error). */
const binaryOperators = new Map<Token, LabelOperator>([
  ['in', 'in'], ['=', '='], ['==', '=='], ['>', 'gt'], ['<', 'lt'], ['notin', 'notin'], ['!=', '!='],
]);

type Step<T> = { ok: true; value: T } | { ok: false; message: string };

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

class Parser {
  private pos = 0;
  constructor(private readonly items: readonly Item[]) {}

  /** In a values context `in`/`notin` are identifiers (`x in (in)`, `notin=in`). */
  private view(item: Item, ctx: Context): Item {
    return ctx === 'values' && (item.tok === 'in' || item.tok === 'notin') ? { tok: 'id', lit: item.lit } : item;
  }

  lookahead(ctx: Context): Item {
    return this.view(this.items[Math.min(this.pos, this.items.length - 1)]!, ctx);
  }

  consume(ctx: Context): Item {
    const item = this.lookahead(ctx);
    this.pos++;
    return item;
  }

  parse(): Step<LabelRequirement[]> {
    const reqs: LabelRequirement[] = [];
    for (let guard = 0; guard < selectorStepsMax; guard++) {
      const { tok, lit } = this.lookahead('values');
      if (tok === 'end') return { ok: true, value: reqs };
      if (tok !== 'id' && tok !== '!') return fail(`found '${lit}', expected: !, identifier, or 'end of string'`);
      const r = this.parseRequirement();
      if (!r.ok) return fail(`unable to parse requirement: ${r.message}`);
      reqs.push(r.value);
      const next = this.consume('values');
      if (next.tok === 'end') return { ok: true, value: reqs };
      if (next.tok !== ',') return fail(`found '${next.lit}', expected: ',' or 'end of string'`);
      const after = this.lookahead('values');
      if (after.tok !== 'id' && after.tok !== '!') return fail(`found '${after.lit}', expected: identifier after ','`);
    }
    return fail('selector too long');
  }

  private parseRequirement(): Step<LabelRequirement> {
    const head = this.parseKeyAndInferOperator();
    if (!head.ok) return head;
    const { key } = head.value;
    let values: string[] = [];
    let operator = head.value.operator;
    if (operator === undefined) {
      const op = this.parseOperator();
      if (!op.ok) return op;
      operator = op.value;
      const vals = operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue();
      if (!vals.ok) return vals;
      values = [...new Set(vals.value)].sort();
    }
    const req = newLabelRequirement(key, operator, values);
    return req.ok ? req : fail(aggregateFieldErrors(req.errors));
  }

  /** `!key` → DoesNotExist; `key` before `,`/end → Exists; otherwise an operator follows. */
  private parseKeyAndInferOperator(): Step<{ key: string; operator: LabelOperator | undefined }> {
    let item = this.consume('values');
    let operator: LabelOperator | undefined;
    if (item.tok === '!') {
      operator = '!';
      item = this.consume('values');
    }
    if (item.tok !== 'id') return fail(`found '${item.lit}', expected: identifier`);
    const msgs = isQualifiedName(item.lit);
    // The parser's field path is nil, which Go prints as `<nil>`.
    if (msgs.length > 0) return fail(aggregateFieldErrors([fieldError.invalid('<nil>', item.lit, msgs.join('; '))]));
    const next = this.lookahead('values').tok;
    if ((next === 'end' || next === ',') && operator === undefined) operator = 'exists';
    return { ok: true, value: { key: item.lit, operator } };
  }

  private parseOperator(): Step<LabelOperator> {
    const { tok, lit } = this.consume('keyAndOperator');
    const op = binaryOperators.get(tok);
    return op === undefined ? fail(`found '${lit}', expected: in, notin, =, ==, !=, gt, lt`) : { ok: true, value: op };
  }

  private parseValues(): Step<string[]> {
    const open = this.consume('values');
    if (open.tok !== '(') return fail(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead('values');
    if (tok === ')') {
      this.consume('values');
      return { ok: true, value: [''] };
    }
    if (tok !== 'id' && tok !== ',') return fail(`found '${lit}', expected: ',', ')' or identifier`);
    const list = this.parseIdentifiersList();
    if (!list.ok) return list;
    // parseIdentifiersList only succeeds in front of ')'.
    if (this.consume('values').tok !== ')') return fail(`found '${lit}', expected: ')'`);
    return list;
  }

  /** Comma-separated, possibly empty identifiers: `(a,,b)`, `(,a)`, `(a,)` all contain "". */
  private parseIdentifiersList(): Step<string[]> {
    const out: string[] = [];
    for (let guard = 0; guard < selectorStepsMax; guard++) {
      const { tok, lit } = this.consume('values');
      if (tok === 'id') {
        out.push(lit);
        const next = this.lookahead('values');
        if (next.tok === ')') return { ok: true, value: out };
        if (next.tok !== ',') return fail(`found '${next.lit}', expected: ',' or ')'`);
      } else if (tok === ',') {
        if (out.length === 0) out.push('');
        const next = this.lookahead('values').tok;
        if (next === ')') {
          out.push('');
          return { ok: true, value: out };
        }
        if (next === ',') out.push('');
      } else return fail(`found '${lit}', expected: ',', or identifier`);
    }
    return fail('selector too long');
  }

  /** The single value after `=`, `==`, `!=`, `>`, `<`; nothing before `,`/end means "". */
  private parseExactValue(): Step<string[]> {
    const next = this.lookahead('values').tok;
    if (next === 'end' || next === ',') return { ok: true, value: [''] };
    const { tok, lit } = this.consume('values');
    return tok === 'id' ? { ok: true, value: [lit] } : fail(`found '${lit}', expected: identifier`);
  }
}

function byKey(reqs: readonly LabelRequirement[]): LabelRequirement[] {
  return [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** labels.Parse: the message on failure is the 400 body Kubernetes sends. */
export function parseLabelSelector(text: string): LabelSelectorParse {
  const parsed = new Parser(scan(text)).parse();
  if (!parsed.ok) return parsed;
  return { ok: true, selector: { nothing: false, requirements: byKey(parsed.value) } };
}

// ---------------------------------------------------------------------------------------------
// Matching

function lookup(labels: Readonly<Record<string, string>> | undefined, key: string): string | undefined {
  return labels !== undefined && hasOwn(labels, key) ? labels[key] : undefined;
}

function requirementMatches(r: LabelRequirement, labels: Readonly<Record<string, string>> | undefined): boolean {
  const v = lookup(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return v !== undefined && r.values.includes(v);
    case 'notin':
    case '!=':
      return v === undefined || !r.values.includes(v);
    case 'exists':
      return v !== undefined;
    case '!':
      return v === undefined;
    case 'gt':
    case 'lt': {
      if (v === undefined || r.values.length !== 1) return false;
      const have = parseInt64(v);
      const want = parseInt64(r.values[0]!);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
  }
}

export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  return !selector.nothing && selector.requirements.every((r) => requirementMatches(r, labels));
}

export function labelSelectorIsEmpty(selector: LabelSelector): boolean {
  return !selector.nothing && selector.requirements.length === 0;
}

// ---------------------------------------------------------------------------------------------
// Printing (Requirement.String, internalSelector.String)

const operatorText: Readonly<Record<LabelOperator, string>> = {
  '=': '=', '==': '==', '!=': '!=', in: ' in ', notin: ' notin ', gt: '>', lt: '<', exists: '', '!': '',
};

/** Requirement.String: one value as is, several sorted and comma-joined; sets in parentheses. */
function requirementToString(r: LabelRequirement): string {
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort().join(',');
  const set = r.operator === 'in' || r.operator === 'notin';
  return `${r.key}${operatorText[r.operator]}${set ? `(${values})` : values}`;
}

/** Canonical text: requirements by key, set values sorted; parses back to the same selector. */
export function labelSelectorToString(selector: LabelSelector): string {
  return byKey(selector.requirements).map(requirementToString).join(',');
}

// ---------------------------------------------------------------------------------------------
// metav1.LabelSelector objects

export interface LabelSelectorRequirementObject {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

export interface LabelSelectorObject {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly LabelSelectorRequirementObject[];
}

export interface LabelSelectorValidationOptions {
  /** AllowInvalidLabelValueInSelector: for updates of objects already stored with bad values. */
  readonly allowInvalidLabelValue?: boolean;
}

const objectOperators: Readonly<Record<string, LabelOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

function validateExpression(e: LabelSelectorRequirementObject, at: string, opts: LabelSelectorValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const values = e.values ?? [];
  if (e.operator === 'In' || e.operator === 'NotIn') {
    if (values.length === 0) errs.push(fieldError.required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') {
    if (values.length > 0) errs.push(fieldError.forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else errs.push(fieldError.invalid(`${at}.operator`, e.operator, 'not a valid selector operator'));
  for (const m of isQualifiedName(e.key)) errs.push(fieldError.invalid(`${at}.key`, e.key, m));
  if (opts.allowInvalidLabelValue !== true) {
    values.forEach((v, i) => {
      for (const m of isValidLabelValue(v)) errs.push(fieldError.invalid(`${at}.values[${i}]`, v, m));
    });
  }
  return errs;
}

/** ValidateLabelSelector: FieldErrors under `path` (e.g. `spec.selector`). */
export function validateLabelSelectorObject(sel: LabelSelectorObject | null | undefined, path: string, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  if (sel === null || sel === undefined) return [];
  const errs = validateLabels(sel.matchLabels, `${path}.matchLabels`);
  (sel.matchExpressions ?? []).forEach((e, i) => errs.push(...validateExpression(e, `${path}.matchExpressions[${i}]`, opts)));
  return errs;
}

/**
 * Validates (without options: conversion in Go re-checks every value) then converts
 * (LabelSelectorAsSelector): null/undefined selects nothing, `{}` selects everything.
 * matchLabels become `=` requirements; expression values keep their given order.
 */
export function labelSelectorFromObject(
  sel: LabelSelectorObject | null | undefined,
  path: string,
): { ok: true; selector: LabelSelector } | { ok: false; errors: FieldError[] } {
  if (sel === null || sel === undefined) return { ok: true, selector: nothingSelector };
  const errs = validateLabelSelectorObject(sel, path);
  if (errs.length > 0) return { ok: false, errors: errs };
  const reqs: LabelRequirement[] = [];
  const matchLabels = sel.matchLabels ?? {};
  for (const k of Object.keys(matchLabels).sort()) reqs.push({ key: k, operator: '=', values: [matchLabels[k] ?? ''] });
  for (const e of sel.matchExpressions ?? []) {
    const operator = hasOwn(objectOperators, e.operator) ? objectOperators[e.operator] : undefined;
    if (operator !== undefined) reqs.push({ key: e.key, operator, values: [...(e.values ?? [])] });
  }
  return { ok: true, selector: { nothing: false, requirements: byKey(reqs) } };
}
