/**
 * What the `node` rules ask of the kubelet at this instant (docs/faults.md): which pods a
 * `podNeverReady` rule keeps from becoming Ready, which running pods a `podFails` rule fails,
 * and — when the kubelet comes back after a `nodeLost` — which pods it reports Ready again.
 * Decisions are made once per pod and rule and remembered (faultMemory.ts).
 */
import type { KubeObject } from '../../api/meta.ts';
import { compareStorageKeys } from '../../store/objects.ts';
import { trieGet, type Trie } from '../../store/trie.ts';
import type { World } from '../../store/world.ts';
import { decide, decisionOf, unspent, type FaultMemory } from './faultMemory.ts';
import type { Step } from './lifecycle.ts';
import { activeRules, selects, type InstalledNodeRule } from './nodeFaults.ts';
import { podPhaseOf } from './podLifecycle.ts';

/**
 * Whether a pod whose Ready step is due stays unready: a `podNeverReady` rule in effect already
 * holds it, or takes it now (the first rule, in installation order, that selects it and fires).
 * Pods already Ready are never looked at: their step was applied.
 */
export function holdOnReady(world: World, memory: FaultMemory, pod: KubeObject): { readonly held: boolean; readonly memory: FaultMemory } {
  const uid = pod.metadata.uid ?? '';
  let m = memory;
  for (const r of activeRules(world, 'podNeverReady')) {
    const known = decisionOf(m, r, uid);
    if (known === 'fired') return { held: true, memory: m };
    if (known !== undefined || !selects(r.rule, pod)) continue;
    const decided = decide(world.seed, m, r, uid);
    if (decided === null) continue;
    m = decided.memory;
    if (decided.decision === 'fired') return { held: true, memory: m };
  }
  return { held: false, memory: m };
}

/** Whether a `podNeverReady` rule in effect holds the pod (decided already). */
export function isHeld(world: World, memory: FaultMemory, uid: string): boolean {
  return activeRules(world, 'podNeverReady').some((r) => decisionOf(memory, r, uid) === 'fired');
}

/** Whether a pod is running (phase Running, not terminating) and the agent has not failed it. */
function running(pod: KubeObject, applied: Trie<readonly Step[]>): boolean {
  const phase = podPhaseOf(pod);
  return (phase === 'Running' || phase === 'Ready') && !(trieGet(applied, pod.metadata.uid ?? '')?.includes('fail') ?? false);
}

/**
 * The pods a `podFails` rule has yet to decide on, with the rule: running pods it selects, in
 * storage order, for each rule in effect that is not spent. `skip` holds the uids already written
 * this round (they are looked at again in the next). The pods are only listed when such a rule
 * is in effect.
 */
export function failCandidates(world: World, memory: FaultMemory, applied: Trie<readonly Step[]>, pods: () => Iterable<KubeObject>, skip: ReadonlySet<string>): { readonly rule: InstalledNodeRule; readonly pods: readonly KubeObject[] }[] {
  const rules = activeRules(world, 'podFails').filter((r) => unspent(memory, r));
  if (rules.length === 0) return [];
  const eligible = [...pods()].filter((p) => !skip.has(p.metadata.uid ?? '') && running(p, applied)).sort(compareStorageKeys);
  return rules.map((rule) => ({ rule, pods: eligible.filter((p) => decisionOf(memory, rule, p.metadata.uid ?? '') === undefined && selects(rule.rule, p)) })).filter((c) => c.pods.length > 0);
}

/**
 * The pods a returning kubelet reports Ready again: running pods it had made Ready that the node
 * lifecycle controller marked unready while the node was lost, in storage order.
 */
export function readyAgain(pods: Iterable<KubeObject>, applied: Trie<readonly Step[]>, skip: ReadonlySet<string>): KubeObject[] {
  return [...pods]
    .filter((p) => {
      const done = trieGet(applied, p.metadata.uid ?? '') ?? [];
      return !skip.has(p.metadata.uid ?? '') && podPhaseOf(p) === 'Running' && done.includes('ready') && !done.includes('fail');
    })
    .sort(compareStorageKeys);
}
