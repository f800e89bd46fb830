/**
 * Whether a value from a saved world is a persistent trie (trie.ts): three slot levels named
 * `0`–`63` above leaves, every key in the leaf its hash places it in (else a read would miss it
 * while a listing shows it, and a write would store it twice). Placement is checked through
 * `trieGet` itself, so this file knows the layout's shape but not its hash. A slot that is
 * undefined is empty (a live world's full levels hold such slots; JSON drops them).
 */
import { isObject } from '../core/json.ts';
import { trieGet, type Trie } from './trie.ts';
import { show } from './validateStoredObject.ts';

const slotLevels = 3;
const slotNames = new Set(Array.from({ length: 64 }, (_, i) => String(i)));

/**
 * The first problem of a trie (its path is the caller's; an entry's is `["key"]`), or null.
 * `entry` checks each value; it is called in no particular order.
 */
export function trieProblem(t: unknown, entry: (key: string, value: unknown) => string | null): string | null {
  if (!isObject(t)) return `: must be an object (a trie), not ${show(t)}`;
  const root = t as Trie<unknown>;
  const walk = (node: unknown, level: number): string | null => {
    if (!isObject(node)) return `: must be an object (a trie), not ${show(node)}`;
    if (level === slotLevels) {
      for (const key of Object.keys(node)) {
        const value = node[key];
        if (value === undefined) continue;
        // The value its hash leads to must be this very one.
        if (trieGet(root, key) !== value) return `[${JSON.stringify(key)}]: not where its hash places it in the trie`;
        const p = entry(key, value);
        if (p !== null) return `[${JSON.stringify(key)}]${p}`;
      }
      return null;
    }
    for (const slot of Object.keys(node)) {
      const child = node[slot];
      if (child === undefined) continue;
      if (!slotNames.has(slot)) return `: trie slot ${show(slot)} is not one of 0-63`;
      const p = walk(child, level + 1);
      if (p !== null) return p;
    }
    return null;
  };
  return walk(root, 0);
}
