/**
 * labels.Parse: the `?labelSelector=` text to a selector, with Kubernetes' parse errors as the
 * 400 messages. Requirements come out sorted by key; `in (...)` values as a sorted set.
 */
import { aggregateFieldErrors, fieldError } from '../../core/fieldErrors.ts';
import { isQualifiedName } from '../validation/names.ts';
import { scan, type Item, type Token } from './labelLexer.ts';
import { newLabelRequirement } from './labelRequirement.ts';
import { byKey, selectorStepsMax, type LabelOperator, type LabelRequirement, type LabelSelectorParse } from './labelSelector.ts';

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

/** labels.Parse: the message on failure is the 400 body Kubernetes sends. */
export function parseLabelSelector(text: string): LabelSelectorParse {
  const parsed = new Parser(scan(text)).parse();
  if (!parsed.ok) return parsed;
  return { ok: true, selector: { nothing: false, requirements: byKey(parsed.value) } };
}
