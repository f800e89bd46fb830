/**
 * Label selectors: the string syntax of `?labelSelector=` and the metav1.LabelSelector object,
 * with the lexer, parser, error wording and matching of apimachinery pkg/labels/selector.go and
 * pkg/apis/meta/v1/{helpers.go,validation/validation.go}. This file holds the selector itself;
 * parsing is parseLabelSelector.ts (with labelLexer.ts and labelRequirement.ts), matching
 * matchesLabels.ts, printing labelSelectorToString.ts, and the object form with its validation
 * labelSelectorObject.ts.
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

/** Every scanning loop advances at least one character or token per turn; this bounds them all. */
export const selectorStepsMax = limits.requestBodyBytesMax;

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

/** strconv.ParseInt(s, 10, 64). */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

/** Requirements sorted by key (stable: equal keys keep their order), as Kubernetes keeps them. */
export function byKey(reqs: readonly LabelRequirement[]): LabelRequirement[] {
  return [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
