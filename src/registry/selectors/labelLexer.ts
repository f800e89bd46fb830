/**
 * The label selector lexer (selector.go Lexer): identifiers, keywords (`in`, `notin`) and the
 * longest run of special characters that forms a token. A NUL reads as Go's 0 end sentinel.
 */
import { selectorStepsMax } from './labelSelector.ts';

export type Token = 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

export interface Item {
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

export function scan(text: string): Item[] {
  const lexer = new Lexer(text);
  const items: Item[] = [];
  for (let guard = 0; guard < selectorStepsMax; guard++) {
    const item = lexer.lex();
    items.push(item);
    if (item.tok === 'end') return items;
  }
  return [{ tok: 'end', lit: '' }];
}
