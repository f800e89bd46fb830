/**
 * The simulated node agent (CONTRACT.md "Simulated node agent"): the kubelet of one Node. It
 * registers the Node (scheduler.ts binds pending pods to it) and moves each pod through its life
 * in virtual time, writing `pods/status` — running at creation, Ready after `ready-after`, Failed
 * after `fail-after` — and removes it `terminate-after` once deleted (its final delete, grace 0).
 * Each step is applied once, at the moment it is due; a status a test wrote itself is never
 * reverted. Off with `nodeAgent: false`.
 *
 * The `node` fault rules (nodeFaults.ts) bend it: a `podNeverReady` rule keeps pods from their
 * Ready step while it is installed, a `podFails` rule fails running pods, and while a `nodeLost`
 * rule holds the kubelet writes nothing at all; when it comes back it posts the node Ready again
 * and reports Ready the pods the node lifecycle controller had marked unready.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Instant } from '../../core/duration.ts';
import { compareStorageKeys, getObject } from '../../store/objects.ts';
import { trieDelete, trieGet, trieSet, type Trie } from '../../store/trie.ts';
import type { World } from '../../store/world.ts';
import type { Controller, ControllerEnv, Intent } from '../types.ts';
import { agendaOf, keepAgenda, type Agenda } from './agenda.ts';
import { agentName, stateOf, stateWith, type AgentState } from './agentState.ts';
import { currentMemory, decide, recordLoss, type FaultMemory } from './faultMemory.ts';
import { failCandidates, holdOnReady, isHeld, readyAgain } from './faultWork.ts';
import { dueSteps, type Step } from './lifecycle.ts';
import { hostIP, kubelet, nodeName, nodeObject, postedReady, readyStatus } from './node.ts';
import { activeRules, kubeletStoppedAt, nodeRules } from './nodeFaults.ts';
import { failedStatus, runningStatus } from './podStatus.ts';
import { wakeNow } from './wakeNow.ts';

export { nodeName } from './node.ts';

const pods = 'core/pods';
const noMemory: FaultMemory = {};

/** What one reconcile does, built up step by step. */
interface Work {
  applied: Trie<readonly Step[]>;
  ips: Trie<string>;
  nextIp: number;
  memory: FaultMemory;
  readonly intents: Intent[];
  /** Pods whose applied steps or IP changed (their agenda entries move on). */
  readonly actedOn: KubeObject[];
  /** Uids of pods written or deleted this round: one write per object and round. */
  readonly written: Set<string>;
}

function podsOf(agenda: Agenda): KubeObject[] {
  return [...agenda.entries.values()].map((e) => e.pod);
}

function writeStatus(work: Work, pod: KubeObject, status: unknown): void {
  work.intents.push({ type: 'update', resource: pods, subresource: 'status', object: { ...pod, status } as KubeObject });
  work.written.add(pod.metadata.uid ?? '');
}

/** The steps due for each pod of the agenda, in storage order as a list would give them. */
function applyDueSteps(world: World, agenda: Agenda, work: Work): void {
  const due = [...agenda.pending.values()].filter((e) => e.at !== null && e.at <= world.now).sort((a, b) => compareStorageKeys(a.pod, b.pod));
  for (const { pod } of due) {
    const uid = pod.metadata.uid ?? '';
    const done = trieGet(work.applied, uid) ?? [];
    let ip = trieGet(work.ips, uid);
    if (ip === undefined) {
      work.ips = trieSet(work.ips, uid, (ip = `10.244.0.${work.nextIp++}`));
      work.actedOn.push(pod);
    }
    let steps = dueSteps(pod, world.config.podReadyAfterMs).filter((s) => s.at <= world.now && !done.includes(s.step)).map((s) => s.step);
    if (steps.includes('ready')) {
      const hold = holdOnReady(world, work.memory, pod);
      work.memory = hold.memory;
      if (hold.held) steps = steps.filter((s) => s !== 'ready');
    }
    const all = [...done, ...steps];
    if (steps.length > 0 || trieGet(work.applied, uid) === undefined) {
      work.applied = trieSet(work.applied, uid, all);
      work.actedOn.push(pod);
    }
    if (steps.length === 0) continue;
    if (steps.includes('remove')) {
      // The containers have stopped: the kubelet's final delete, immediate and for this pod only.
      work.intents.push({ type: 'delete', resource: pods, namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid, gracePeriodSeconds: 0 });
      work.written.add(uid);
      continue;
    }
    writeStatus(work, pod, all.includes('fail') ? failedStatus(pod, world.now) : runningStatus(pod, { hostIP, podIP: ip }, all.includes('ready'), world.now));
  }
}

/** `podFails`: the running pods a rule takes fail now, with the status the fail-after step writes. */
function applyFailures(world: World, agenda: Agenda, work: Work): void {
  for (const { rule, pods: candidates } of failCandidates(world, work.memory, work.applied, () => podsOf(agenda), work.written)) {
    for (const pod of candidates) {
      const uid = pod.metadata.uid ?? '';
      if (work.written.has(uid)) continue;
      const decided = decide(world.seed, work.memory, rule, uid);
      if (decided === null) break;
      work.memory = decided.memory;
      if (decided.decision !== 'fired') continue;
      // A failed pod has nothing left to start or become ready: only its removal may come.
      const done = trieGet(work.applied, uid) ?? [];
      work.applied = trieSet(work.applied, uid, [...done, ...(['start', 'ready', 'fail'] as const).filter((s) => !done.includes(s))]);
      work.actedOn.push(pod);
      writeStatus(work, pod, failedStatus(pod, world.now));
    }
  }
}

/** While the kubelet is lost it writes nothing; it only notes that it was (and which rules fired). */
function silent(world: World, state: AgentState, memory: FaultMemory): Intent[] {
  const noted = recordLoss(memory, activeRules(world, 'nodeLost'));
  if (state.lost === true && noted === (state.faults ?? noMemory)) return [];
  return [{ type: 'remember', controller: agentName, state: stateWith(state, true, noted) }];
}

/** Whether fault work is waiting at this instant: a return, a rule cleared, a pod to fail. */
function faultWorkNow(world: World, state: AgentState, agenda: Agenda): boolean {
  const memory = state.faults ?? noMemory;
  if (state.lost === true || currentMemory(memory, nodeRules(world)) !== memory) return true;
  return failCandidates(world, memory, state.applied, () => podsOf(agenda), new Set()).length > 0;
}

export const nodeAgent: Controller = {
  name: agentName,
  actor: () => kubelet,
  // The fault rules it reads (world.faults) are part of every reading the dirty set compares.
  watches: ['core/pods', 'core/nodes'],
  reconcile(world, env) {
    if (!world.config.nodeAgent) return [];
    const state = stateOf(world);
    const before = state.faults ?? noMemory;
    const memory = currentMemory(before, nodeRules(world));
    if (kubeletStoppedAt(world) !== null) return silent(world, state, memory);
    const work: Work = { applied: state.applied, ips: state.ips, nextIp: state.nextIp, memory, intents: [], actedOn: [], written: new Set() };
    const node = getObject(world, 'core/nodes', '', nodeName);
    if (node === undefined) work.intents.push({ type: 'create', resource: 'core/nodes', object: nodeObject(env) });
    else if (state.lost === true && (readyStatus(node) ?? 'True') !== 'True') work.intents.push({ type: 'update', resource: 'core/nodes', subresource: 'status', object: postedReady(node, world.now) });
    const agenda = agendaOf(world, state, env.checkViews === true);
    for (const uid of [...agenda.gone].sort()) {
      work.applied = trieDelete(work.applied, uid);
      work.ips = trieDelete(work.ips, uid);
    }
    applyDueSteps(world, agenda, work);
    applyFailures(world, agenda, work);
    if (state.lost === true) {
      for (const pod of readyAgain(podsOf(agenda), work.applied, work.written)) {
        writeStatus(work, pod, runningStatus(pod, { hostIP, podIP: trieGet(work.ips, pod.metadata.uid ?? '') ?? '' }, true, world.now));
      }
    }
    const changed = work.applied !== state.applied || work.ips !== state.ips || work.nextIp !== state.nextIp || work.memory !== before || state.lost === true;
    if (!changed) return work.intents;
    const next = stateWith({ applied: work.applied, ips: work.ips, nextIp: work.nextIp }, false, work.memory);
    keepAgenda(agenda, next, work.actedOn);
    return [...work.intents, { type: 'remember', controller: agentName, state: next }];
  },
  nextWakeup(world, env: ControllerEnv) {
    if (!world.config.nodeAgent || kubeletStoppedAt(world) !== null) return null;
    const state = stateOf(world);
    const agenda = agendaOf(world, state, env.checkViews === true);
    let next: Instant | null = faultWorkNow(world, state, agenda) ? wakeNow(world, agentName) : null;
    if (next !== null) return next;
    const consider = (t: Instant): void => {
      if (t > world.now && (next === null || t < next)) next = t;
    };
    const memory = state.faults ?? noMemory;
    for (const e of agenda.pending.values()) {
      if (e.at === null) continue;
      if (e.at > world.now) consider(e.at);
      else if (isHeld(world, memory, e.pod.metadata.uid ?? '')) {
        // Its Ready step held back by a podNeverReady rule: the pod's later steps still come on time.
        const done = trieGet(state.applied, e.pod.metadata.uid ?? '') ?? [];
        for (const s of dueSteps(e.pod, agenda.readyAfter)) if (!done.includes(s.step)) consider(s.at);
      }
    }
    // A podFails rule takes effect at its moment.
    for (const r of nodeRules(world)) if (r.rule.action === 'podFails') consider(r.at);
    return next;
  },
};
