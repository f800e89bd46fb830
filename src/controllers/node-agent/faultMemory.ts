/**
 * What each `node` rule did, kept in the node agent's remembered state: a controller cannot write
 * `world.faults`, so a node rule's `fired` and `passed` counts live here (docs/faults.md), with
 * the decision it made for each pod — a pod is decided once, by uid, so a rule holds or fails a
 * given pod at most once and `after`, `times` and `probability` count pods, in the order the agent
 * meets them (storage order at each instant). A rule cleared is forgotten.
 */
import { emptyTrie, trieGet, trieSet, type Trie } from '../../store/trie.ts';
import type { InstalledNodeRule } from './nodeFaults.ts';

/** What a rule decided for a pod: it took it, `after` let it through, or the draw spared it. */
export type PodDecision = 'fired' | 'passed' | 'spared';

export interface RuleMemory {
  /** The rule as canonical JSON (InstalledNodeRule.text). */
  readonly rule: string;
  /** Pods held or failed; 1 for a node lost. */
  readonly fired: number;
  /** Pods let through by `after`. */
  readonly passed: number;
  /** Decisions by pod uid. */
  readonly pods: Trie<PodDecision>;
}

/** By InstalledNodeRule.key. */
export type FaultMemory = Readonly<Record<string, RuleMemory>>;

/** The memory of the rules still installed, in their order; the same object when nothing went. */
export function currentMemory(memory: FaultMemory, rules: readonly InstalledNodeRule[]): FaultMemory {
  const kept: Record<string, RuleMemory> = {};
  let same = true;
  for (const r of rules) {
    const m = memory[r.key];
    if (m !== undefined && m.rule === r.text) kept[r.key] = m;
  }
  for (const key of Object.keys(memory)) if (kept[key] !== memory[key]) same = false;
  return same ? memory : kept;
}

export function memoryOf(memory: FaultMemory, r: InstalledNodeRule): RuleMemory {
  const m = memory[r.key];
  return m !== undefined && m.rule === r.text ? m : { rule: r.text, fired: 0, passed: 0, pods: emptyTrie };
}

export function decisionOf(memory: FaultMemory, r: InstalledNodeRule, uid: string): PodDecision | undefined {
  const m = memory[r.key];
  return m !== undefined && m.rule === r.text ? trieGet(m.pods, uid) : undefined;
}

/** Whether the rule may still take pods (`times` not reached). */
export function unspent(memory: FaultMemory, r: InstalledNodeRule): boolean {
  return r.rule.times === undefined || memoryOf(memory, r).fired < r.rule.times;
}

/**
 * 53 bits of a string's cyrb53 hash, as a fraction in [0, 1): the draw of a pod under a rule's
 * `probability`. Keyed by the seed, the rule and the pod, so a pod's draw does not depend on
 * which other pods were drawn before it, and the same seed draws the same pods. (Controllers may
 * not import ports/rng.ts; a keyed hash is the pure equivalent of a fresh stream per key.)
 */
export function drawFraction(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)) / 2 ** 53;
}

/**
 * The rule's decision for a pod it selects and has not decided yet: `after` lets the first pods
 * through, then each pod fires unless the `probability` draw spares it. Null when the rule is
 * spent (`times`): nothing is recorded, the pod goes its way.
 */
export function decide(seed: string, memory: FaultMemory, r: InstalledNodeRule, uid: string): { readonly memory: FaultMemory; readonly decision: PodDecision } | null {
  if (!unspent(memory, r)) return null;
  const m = memoryOf(memory, r);
  let decision: PodDecision = 'fired';
  if (m.passed < (r.rule.after ?? 0)) decision = 'passed';
  else if (r.rule.probability !== undefined && r.rule.probability < 1 && drawFraction(`${seed}\u0000faults/node/${r.key}/${uid}`) >= r.rule.probability) decision = 'spared';
  const next: RuleMemory = {
    rule: m.rule,
    fired: m.fired + (decision === 'fired' ? 1 : 0),
    passed: m.passed + (decision === 'passed' ? 1 : 0),
    pods: trieSet(m.pods, uid, decision),
  };
  return { memory: { ...memory, [r.key]: next }, decision };
}

/** A lost node counts once per nodeLost rule. */
export function recordLoss(memory: FaultMemory, rules: readonly InstalledNodeRule[]): FaultMemory {
  let out = memory;
  for (const r of rules) if (memoryOf(out, r).fired === 0) out = { ...out, [r.key]: { ...memoryOf(out, r), fired: 1 } };
  return out;
}
