/**
 * The simulated node agent (CONTRACT.md "Simulated node agent"): the kubelet of one Node. It
 * registers the Node (scheduler.ts binds pending pods to it) and moves each pod through its life
 * in virtual time, writing `pods/status` — running at creation, Ready after `ready-after`, Failed
 * after `fail-after` — and removes it `terminate-after` once deleted (its final delete, grace 0). Each step is applied once, at the moment it is due; a status a test wrote itself
 * is never reverted. Off with `nodeAgent: false`.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, type JsonObject, objectField } from '../../core/json.ts';
import { compareStorageKeys, getObject, listObjects } from '../../store/objects.ts';
import { objectChanges, storeOf } from '../../store/views.ts';
import { emptyTrie, trieDelete, trieGet, trieKeys, trieSet, type Trie } from '../../store/trie.ts';
import { assert } from '../../core/assert.ts';
import type { Instant } from '../../core/duration.ts';
import type { Actor, Controller, ControllerEnv, Intent } from '../types.ts';
import type { World } from '../../store/world.ts';
import { dueSteps, type Step } from './lifecycle.ts';
import { failedStatus, runningStatus } from './podStatus.ts';

export const nodeName = 'node-1';
const hostIP = '10.0.0.1';
const name = 'node-agent';
const pods = 'core/pods';

/**
 * What the agent remembers. By pod uid in persistent tries (store/trie.ts), plain JSON still: a
 * step applied to one pod copies a few small containers, not a record of every pod on the node.
 */
interface AgentState {
  /** Steps already applied, by pod uid. */
  readonly applied: Trie<readonly Step[]>;
  /** Pod IPs handed out, by pod uid, and the next one. */
  readonly ips: Trie<string>;
  readonly nextIp: number;
}

const emptyState: AgentState = { applied: emptyTrie, ips: emptyTrie, nextIp: 2 };

function stateOf(world: { controllers: Readonly<Record<string, unknown>> }): AgentState {
  const s = world.controllers[name];
  return isObject(s) ? (s as unknown as AgentState) : emptyState;
}

function nodeObject(env: ControllerEnv): KubeObject {
  const k = env.names.wellKnown;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: nodeName, labels: { [`${k}/hostname`]: nodeName, [`${k}/os`]: 'linux', [`${k}/arch`]: 'amd64' } },
    spec: {},
    status: {
      capacity: { cpu: '8', memory: '32Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'NodeAgentReady', message: 'the simulated node agent is posting ready status' }],
      addresses: [{ type: 'InternalIP', address: hostIP }, { type: 'Hostname', address: nodeName }],
      nodeInfo: { kubeletVersion: 'v1.32.0-platform-sim', operatingSystem: 'linux', architecture: 'amd64', containerRuntimeVersion: 'sim://1' },
    },
  } as unknown as KubeObject;
}

const specOf = (pod: KubeObject): JsonObject => (objectField(pod, 'spec'));

function ours(pod: KubeObject): boolean {
  return specOf(pod)['nodeName'] === nodeName;
}

/** The kubelet of the one simulated node: its node identity and field manager. */
const kubelet: Actor = { manager: 'kubelet', user: { username: `system:node:${nodeName}`, groups: ['system:nodes', 'system:authenticated'] } };

/** One pod of ours and the instant its next step not yet applied is due (null: none left). */
interface Entry {
  readonly pod: KubeObject;
  readonly at: Instant | null;
  /** Whether the state has steps for it. */
  readonly known: boolean;
}

/**
 * The agent's agenda: every pod of ours with its next unapplied step, for one version of the pod
 * store and one agent state. Kept from round to round (store/views.ts): the pods that changed in
 * between are looked at again, and the agent's own acts update the entries it acted on, so a
 * settle round costs the pods that moved, not every pod on the node.
 */
interface Agenda {
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

type PodStore = ReturnType<typeof storeOf>;

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

function agendaOf(world: World, state: AgentState, check: boolean): Agenda {
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

export const nodeAgent: Controller = {
  name,
  actor: () => kubelet,
  watches: ['core/pods', 'core/nodes'],
  reconcile(world, env) {
    if (!world.config.nodeAgent) return [];
    const intents: Intent[] = [];
    if (getObject(world, 'core/nodes', '', nodeName) === undefined) intents.push({ type: 'create', resource: 'core/nodes', object: nodeObject(env) });
    const state = stateOf(world);
    const agenda = agendaOf(world, state, env.checkViews === true);
    // Pods with a step due (new ones first of all), in storage order as a list would give them.
    const due: Entry[] = [];
    for (const e of agenda.pending.values()) if (e.at !== null && e.at <= world.now) due.push(e);
    if (due.length === 0 && agenda.gone.size === 0) return intents;
    due.sort((a, b) => compareStorageKeys(a.pod, b.pod));
    let applied = state.applied;
    let ips = state.ips;
    for (const uid of [...agenda.gone].sort()) {
      applied = trieDelete(applied, uid);
      ips = trieDelete(ips, uid);
    }
    let nextIp = state.nextIp;
    for (const { pod } of due) {
      const uid = pod.metadata.uid ?? '';
      const done = trieGet(state.applied, uid) ?? [];
      let ip = trieGet(state.ips, uid);
      if (ip === undefined) ips = trieSet(ips, uid, (ip = `10.244.0.${nextIp++}`));
      const steps = dueSteps(pod, world.config.podReadyAfterMs).filter((s) => s.at <= world.now && !done.includes(s.step)).map((s) => s.step);
      const all = [...done, ...steps];
      if (steps.length > 0 || trieGet(applied, uid) === undefined) applied = trieSet(applied, uid, all);
      if (steps.length === 0) continue;
      if (steps.includes('remove')) {
        // The containers have stopped: the kubelet's final delete, immediate and for this pod only.
        intents.push({ type: 'delete', resource: pods, namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid, gracePeriodSeconds: 0 });
        continue;
      }
      const status = all.includes('fail') ? failedStatus(pod, world.now) : runningStatus(pod, { hostIP, podIP: ip }, all.includes('ready'), world.now);
      intents.push({ type: 'update', resource: pods, subresource: 'status', object: { ...pod, status } as KubeObject });
    }
    const next: AgentState = { applied, ips, nextIp };
    intents.push({ type: 'remember', controller: name, state: next });
    // The agenda of the state remembered: only the pods acted on have moved on, the gone forgotten.
    if (kept === agenda) {
      kept = { ...agenda, state: next, gone: new Set() };
      for (const { pod } of due) setEntry(kept, entryOf(pod, next, agenda.readyAfter));
    }
    return intents;
  },
  nextWakeup(world, env) {
    if (!world.config.nodeAgent) return null;
    let next: Instant | null = null;
    for (const e of agendaOf(world, stateOf(world), env.checkViews === true).pending.values()) if (e.at !== null && e.at > world.now && (next === null || e.at < next)) next = e.at;
    return next;
  },
};
