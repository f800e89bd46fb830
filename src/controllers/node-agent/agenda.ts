/**
 * The node agent's agenda: every pod of ours with the instant its next step not yet applied is
 * due, for one version of the pod store and one agent state. Kept from round to round
 * (store/views.ts): the pods that changed in between are looked at again, and the agent's own
 * acts update the entries it acted on, so a settle round costs the pods that moved, not every pod
 * on the node.
 */
import type { KubeObject } from '../../api/meta.ts';
import { assert } from '../../core/assert.ts';
import type { Instant } from '../../core/duration.ts';
import { objectField } from '../../core/json.ts';
import { listObjects } from '../../store/objects.ts';
import { trieGet, trieKeys } from '../../store/trie.ts';
import { objectChanges, storeOf } from '../../store/views.ts';
import type { World } from '../../store/world.ts';
import type { AgentState } from './agentState.ts';
import { dueSteps } from './lifecycle.ts';
import { nodeName } from './node.ts';

const pods = 'core/pods';

export function ours(pod: KubeObject): boolean {
  return objectField(pod, 'spec')['nodeName'] === nodeName;
}

/** One pod of ours and the instant its next step not yet applied is due (null: none left). */
export interface Entry {
  readonly pod: KubeObject;
  readonly at: Instant | null;
  /** Whether the state has steps for it. */
  readonly known: boolean;
}

type PodStore = ReturnType<typeof storeOf>;

export interface Agenda {
  readonly pods: PodStore;
  readonly state: AgentState;
  readonly readyAfter: number;
  /** By pod uid. */
  readonly entries: Map<string, Entry>;
  /** The entries with a step still to come (the few pods in motion), by pod uid. */
  readonly pending: Map<string, Entry>;
  /** Uids the state has steps for whose pods went. */
  readonly gone: Set<string>;
}

/** The pod's entry; due at -Infinity when new to the agent (no steps applied or no IP yet). */
function entryOf(pod: KubeObject, state: AgentState, readyAfter: number): Entry {
  const uid = pod.metadata.uid ?? '';
  const done = trieGet(state.applied, uid);
  if (done === undefined || trieGet(state.ips, uid) === undefined) return { pod, at: -Infinity, known: done !== undefined };
  let next: Instant | null = null;
  for (const s of dueSteps(pod, readyAfter)) if (!done.includes(s.step) && (next === null || s.at < next)) next = s.at;
  return { pod, at: next, known: true };
}

function freshAgenda(world: World, state: AgentState): Agenda {
  const readyAfter = world.config.podReadyAfterMs;
  const agenda: Agenda = { pods: storeOf(world, pods), state, readyAfter, entries: new Map(), pending: new Map(), gone: new Set() };
  for (const pod of listObjects(world, pods, null)) if (ours(pod)) setEntry(agenda, entryOf(pod, state, readyAfter));
  for (const uid of trieKeys(state.applied)) if (!agenda.entries.has(uid)) agenda.gone.add(uid);
  return agenda;
}

function setEntry(a: Agenda, e: Entry): void {
  const uid = e.pod.metadata.uid ?? '';
  a.entries.set(uid, e);
  if (e.at === null) a.pending.delete(uid);
  else a.pending.set(uid, e);
}

function deleteEntry(a: Agenda, uid: string): void {
  a.entries.delete(uid);
  a.pending.delete(uid);
}

let kept: Agenda | null = null;

export function agendaOf(world: World, state: AgentState, check: boolean): Agenda {
  const store = storeOf(world, pods);
  const readyAfter = world.config.podReadyAfterMs;
  if (kept === null || kept.state !== state || kept.readyAfter !== readyAfter) kept = freshAgenda(world, state);
  else if (kept.pods !== store) {
    const agenda = kept;
    objectChanges(kept.pods, store, (_ns, _name, before, after) => {
      if (before !== undefined && ours(before)) {
        const uid = before.metadata.uid ?? '';
        if (agenda.entries.get(uid)?.known === true) agenda.gone.add(uid);
        deleteEntry(agenda, uid);
      }
      if (after !== undefined && ours(after)) {
        agenda.gone.delete(after.metadata.uid ?? '');
        setEntry(agenda, entryOf(after, state, readyAfter));
      }
    });
    kept = { ...kept, pods: store };
  }
  if (check) {
    const fresh = freshAgenda(world, state);
    assert(fresh.entries.size === kept.entries.size && fresh.pending.size === kept.pending.size && fresh.gone.size === kept.gone.size && [...fresh.gone].every((uid) => kept!.gone.has(uid)), 'node-agent: the kept agenda lost or gained pods');
    for (const [uid, e] of fresh.entries) assert(kept.entries.get(uid)?.pod === e.pod && kept.entries.get(uid)?.at === e.at && kept.entries.get(uid)?.known === e.known, `node-agent: the kept agenda is stale for pod ${uid}`);
  }
  return kept;
}

/**
 * The agenda of the state the agent is about to remember: only the pods it acted on have moved
 * on, the gone forgotten. (Kept only when the agenda acted on is the one kept.)
 */
export function keepAgenda(agenda: Agenda, next: AgentState, actedOn: readonly KubeObject[]): void {
  if (kept !== agenda) return;
  kept = { ...agenda, state: next, gone: new Set() };
  for (const pod of actedOn) setEntry(kept, entryOf(pod, next, agenda.readyAfter));
}
