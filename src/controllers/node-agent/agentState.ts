/**
 * What the node agent remembers (`world.controllers["node-agent"]`). By pod uid in persistent tries
 * (store/trie.ts), plain JSON still: a step applied to one pod copies a few small containers, not
 * a record of every pod on the node. The fault fields appear only once a node rule did something,
 * so a run without faults remembers exactly what it did before they existed.
 */
import { isObject } from '../../core/json.ts';
import { emptyTrie, type Trie } from '../../store/trie.ts';
import type { FaultMemory } from './faultMemory.ts';
import type { Step } from './lifecycle.ts';

export const agentName = 'node-agent';

export interface AgentState {
  /** Steps already applied, by pod uid: a step is never applied twice. */
  readonly applied: Trie<readonly Step[]>;
  /** Pod IPs handed out, by pod uid, and the next one. */
  readonly ips: Trie<string>;
  readonly nextIp: number;
  /** The kubelet has been stopped by a nodeLost rule and has not come back yet. */
  readonly lost?: true;
  /** What each node rule did (faultMemory.ts). */
  readonly faults?: FaultMemory;
}

export const emptyState: AgentState = { applied: emptyTrie, ips: emptyTrie, nextIp: 2 };

export function stateOf(world: { controllers: Readonly<Record<string, unknown>> }): AgentState {
  const s = world.controllers[agentName];
  return isObject(s) ? (s as unknown as AgentState) : emptyState;
}

/** The state to remember, with the optional fields present only when they say something. */
export function stateWith(base: AgentState, lost: boolean, faults: FaultMemory): AgentState {
  const { lost: _lost, faults: _faults, ...rest } = base;
  return { ...rest, ...(lost ? { lost: true as const } : {}), ...(Object.keys(faults).length > 0 ? { faults } : {}) };
}
