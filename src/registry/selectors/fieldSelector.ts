/**
 * Field selectors (`?fieldSelector=`), as apimachinery pkg/fields/selector.go and the field-label
 * conversion messages of pkg/runtime/conversion.go.
 *
 * Rules (all as Kubernetes):
 * - Terms split on unescaped `,`, then sorted (byte order); empty terms are skipped.
 * - Each term splits at the first `!=`, `==` or `=` (checked in that order at each position);
 *   no set or existence operators, no whitespace trimming, the field name is not validated.
 * - Values unescape `\\`, `\,`, `\=`; any other escape or a bare `=` is an error.
 * - A term with an empty field and an empty value (`=`) selects everything and is dropped.
 * - A missing field reads as "": `f=` matches objects without it, `f!=x` too.
 * - Which fields a kind supports is checked by the caller, with `unsupportedFieldMessage`.
 */
import { hasOwn } from '../../core/json.ts';

export type FieldOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  /** `==` is stored as `=`: Kubernetes keeps no difference between them. */
  readonly operator: FieldOperator;
  readonly value: string;
}

export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
}

export type FieldSelectorParse = { ok: true; selector: FieldSelector } | { ok: false; message: string };

/** Splits on commas not preceded by an escaping backslash. */
function splitTerms(text: string): string[] {
  if (text === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

function splitTerm(term: string): { field: string; op: (typeof termOperators)[number]; value: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return { field: term.slice(0, i), op, value: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** UnescapeValue; the error texts are Kubernetes' (a bare `=` is reported as its code point, 61). */
export function unescapeFieldValue(s: string): { ok: true; value: string } | { ok: false; message: string } {
  if (!/[\\,=]/.test(s)) return { ok: true, value: s };
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') return { ok: false, message: `invalid field selector: invalid escape sequence: \\${c}` };
      out += c;
      inSlash = false;
    } else if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') return { ok: false, message: `invalid field selector: unescaped character in value: ${c.codePointAt(0)}` };
    else out += c;
  }
  if (inSlash) return { ok: false, message: 'invalid field selector: invalid escape sequence: \\' };
  return { ok: true, value: out };
}

export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.ParseSelector: the message on failure is the 400 body Kubernetes sends. */
export function parseFieldSelector(text: string): FieldSelectorParse {
  const requirements: FieldRequirement[] = [];
  for (const part of splitTerms(text).sort()) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (term === undefined) return { ok: false, message: `invalid selector: '${text}'; can't understand '${part}'` };
    const value = unescapeFieldValue(term.value);
    if (!value.ok) return value;
    if (term.field === '' && value.value === '') continue;
    requirements.push({ field: term.field, operator: term.op === '!=' ? '!=' : '=', value: value.value });
  }
  return { ok: true, selector: { requirements } };
}

/** Requirements in Kubernetes' order (sorted terms): callers check support in this order. */
export function fieldSelectorRequirements(selector: FieldSelector): readonly FieldRequirement[] {
  return selector.requirements;
}

/** `fields` holds what the kind exposes (e.g. metadata.name); a missing one reads as "". */
export function matchesFields(selector: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
  return selector.requirements.every((r) => {
    const have = hasOwn(fields, r.field) ? (fields[r.field] ?? '') : '';
    return r.operator === '=' ? have === r.value : have !== r.value;
  });
}

export function fieldSelectorToString(selector: FieldSelector): string {
  return selector.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
}

/**
 * The 400 message for a field the kind does not support. Kinds using the default conversion
 * list their fields (`only "metadata.name", "metadata.namespace"`); kinds with their own
 * conversion function answer `field label not supported: <field>`.
 */
export function unsupportedFieldMessage(field: string, supported: readonly string[] | 'custom'): string {
  if (supported === 'custom') return `field label not supported: ${field}`;
  return `${JSON.stringify(field)} is not a known field selector: only ${supported.map((f) => JSON.stringify(f)).join(', ')}`;
}
