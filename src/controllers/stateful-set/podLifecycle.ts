/**
 * The life of a StatefulSet member as its controller sees it (reference/statefulset.md §6, §9),
 * as a table for the controller to choose its work from and for docs/statefulset.md to draw: an
 * ordinal's pod is missing, created, running, ready, available once Ready for more than
 * `minReadySeconds`; a failed pod is deleted and recreated; a condemned one (ordinal out of range)
 * or an outdated one (old revision, index at or above the partition, RollingUpdate) is deleted;
 * a terminating pod is waited for. Who makes each move (a user changing the set, the controller,
 * the kubelet, the clock) and what sets it off are in the table.
 *
 * A member's phase (memberPhaseOf) puts the controller's reasons first — Terminating, Condemned,
 * Failed, Outdated — and its health after; the health alone (healthOf) is what ordering and
 * availability budgets look at, whatever the reason a pod is about to go.
 */
import type { KubeObject } from '../../api/meta.ts';
import { parseInstant, type Instant } from '../../core/duration.ts';
import { isObject, type JsonObject, objectField } from '../../core/json.ts';
import { movesBetween, phasesActedOnBy, reachableFrom, type Lifecycle, type Move } from '../../core/lifecycle.ts';

/** The pod label naming the ControllerRevision a pod was built from (the same in both name modes). */
export const revisionLabel = 'controller-revision-hash';

export type MemberHealth = 'Missing' | 'Pending' | 'RunningUnready' | 'Ready' | 'Available' | 'Failed' | 'Terminating';

export type MemberPhase = 'Gone' | MemberHealth | 'Outdated' | 'Condemned';

export type MemberActor = 'user' | 'statefulset-controller' | 'node-agent' | 'clock';

export type MemberVia = 'statefulsets' | 'create pods' | 'pods/status' | 'delete pods' | 'delete, grace 0' | 'time';

export type MemberMove = Move<MemberPhase> & { readonly actor: MemberActor; readonly via: MemberVia };

/** What of the set decides a member's phase. */
export interface SetView {
  /** `spec.ordinals.start` (0 when absent). */
  readonly start: number;
  readonly replicas: number;
  readonly updateRevision: string;
  /** `RollingUpdate` replaces outdated pods itself; `OnDelete` waits for someone to delete them. */
  readonly updateStrategy: 'RollingUpdate' | 'OnDelete';
  /** `rollingUpdate.partition` (0 when absent), compared with the index `ordinal - start`. */
  readonly partition: number;
  readonly minReadySeconds: number;
}

export interface SetMember {
  readonly ordinal: number;
  readonly pod: KubeObject | undefined;
}

const created: readonly MemberPhase[] = ['Pending', 'RunningUnready', 'Ready', 'Available'];

export const statefulSetPodLifecycle: Lifecycle<MemberPhase, MemberMove> = {
  name: 'statefulset',
  outside: 'Gone',
  groups: [{ name: 'Created', phases: created }],
  phases: [
    { name: 'Gone', means: 'no pod, and its ordinal is out of range' },
    { name: 'Missing', means: 'ordinal in range, no pod yet (it counts as unavailable)' },
    { name: 'Pending', means: 'created, not Running' },
    { name: 'RunningUnready', means: 'Running, Ready not True' },
    { name: 'Ready', means: 'Running and Ready, for minReadySeconds or less' },
    { name: 'Available', means: 'Ready for at least minReadySeconds' },
    { name: 'Failed', means: 'phase Failed or Succeeded, ordinal in range' },
    { name: 'Outdated', means: 'RollingUpdate, index at or above the partition, revision label not the updateRevision' },
    { name: 'Condemned', means: 'ordinal out of range, not yet terminating' },
    { name: 'Terminating', means: 'deletionTimestamp set' },
  ],
  moves: [
    { from: ['Gone'], to: 'Missing', actor: 'user', via: 'statefulsets', marks: 'spec.replicas or spec.ordinals.start', label: 'in range', when: 'the set is created or scaled so that the ordinal is in range' },
    {
      from: ['Missing'],
      to: 'Pending',
      actor: 'statefulset-controller',
      via: 'create pods',
      marks: `pod <set>-<ordinal> with its ${revisionLabel}, pod-name and pod-index labels and owner reference`,
      label: 'create',
      when: 'claims first. OrderedReady: every lower ordinal Available and none terminating. Parallel: at once (500 pod writes a set a second at most)',
    },
    { from: ['Pending'], to: 'RunningUnready', actor: 'node-agent', via: 'pods/status', marks: 'phase Running', label: 'started', when: 'the kubelet starts it' },
    { from: ['Pending', 'RunningUnready'], to: 'Ready', actor: 'node-agent', via: 'pods/status', marks: 'condition Ready True', label: 'ready', when: 'the kubelet finds it ready' },
    { from: ['Ready'], to: 'Available', actor: 'clock', via: 'time', marks: 'nothing: Ready lastTransitionTime plus minReadySeconds has passed', label: 'minReadySeconds later', when: 'minReadySeconds after Ready, to the moment (at once when it is 0)' },
    { from: ['Ready', 'Available'], to: 'RunningUnready', actor: 'node-agent', via: 'pods/status', marks: 'condition Ready False', label: 'unready', when: 'the kubelet finds it unready' },
    { from: [...created, 'Outdated'], to: 'Failed', actor: 'node-agent', via: 'pods/status', marks: 'phase Failed or Succeeded', label: 'fails or ends', when: 'its containers stop' },
    { from: created, to: 'Outdated', actor: 'user', via: 'statefulsets', marks: 'a new updateRevision (template changed)', label: 'template changed', when: 'RollingUpdate and the index is at or above the partition' },
    { from: [...created, 'Failed', 'Outdated'], to: 'Condemned', actor: 'user', via: 'statefulsets', marks: 'spec.replicas or spec.ordinals.start', label: 'out of range', when: 'the set is scaled so that the ordinal leaves the range' },
    { from: ['Missing'], to: 'Gone', actor: 'user', via: 'statefulsets', marks: 'spec.replicas or spec.ordinals.start', label: 'out of range', when: 'scaled down before the pod was created' },
    {
      from: ['Failed'],
      to: 'Terminating',
      actor: 'statefulset-controller',
      via: 'delete pods',
      marks: 'deletionTimestamp',
      label: 'delete to recreate',
      when: 'OrderedReady: when every lower ordinal is healthy. Parallel: at once',
    },
    {
      from: ['Outdated'],
      to: 'Terminating',
      actor: 'statefulset-controller',
      via: 'delete pods',
      marks: 'deletionTimestamp',
      label: 'delete for update',
      when: 'after scaling, highest index first, one at a time once the pods above are updated and available (or within maxUnavailable)',
    },
    {
      from: ['Condemned'],
      to: 'Terminating',
      actor: 'statefulset-controller',
      via: 'delete pods',
      marks: 'deletionTimestamp',
      label: 'delete, scale-down',
      when: 'highest ordinal first. OrderedReady: one at a time, every in-range pod Available, itself Available or the first unavailable. Parallel: all at once (500 pod writes a set a second at most)',
    },
    { from: [...created, 'Failed', 'Outdated', 'Condemned'], to: 'Terminating', actor: 'user', via: 'delete pods', marks: 'deletionTimestamp', label: 'DELETE', when: 'anyone, for instance to replace a pod under OnDelete' },
    { from: ['Terminating'], to: 'Missing', actor: 'node-agent', via: 'delete, grace 0', marks: 'the pod is gone', label: 'removed, in range', when: 'the kubelet is done. Recreated next, at the updateRevision (the currentRevision below the partition)' },
    { from: ['Terminating'], to: 'Gone', actor: 'node-agent', via: 'delete, grace 0', marks: 'the pod is gone', label: 'removed, out of range', when: 'the kubelet is done' },
  ],
};

function conditionOf(pod: KubeObject, type: string): JsonObject | undefined {
  const status = objectField(pod, 'status');
  const list = Array.isArray(status['conditions']) ? status['conditions'] : [];
  return list.filter(isObject).find((c) => c['type'] === type);
}

const podPhase = (pod: KubeObject): unknown => (isObject(pod['status']) ? pod['status']['phase'] : undefined);

/** Running with Ready True (reference §6.3 runningAndReady). */
export function isRunningAndReady(pod: KubeObject): boolean {
  return factsOf(pod).runningAndReady;
}

/** What the controller reads of a pod, every sync: read once per stored version. */
export interface PodFacts {
  /** `status.phase` as written ('' when absent: not yet seen by a kubelet). */
  readonly phase: string;
  readonly runningAndReady: boolean;
  /** Ready's lastTransitionTime, when it is a non-zero time. */
  readonly readySince: Instant | null;
  readonly terminating: boolean;
  /** The `controller-revision-hash` label, if any. */
  readonly revision: string | undefined;
}

/** By stored pod (a stored version never changes). */
const factsByPod = new WeakMap<KubeObject, PodFacts>();

export function factsOf(pod: KubeObject): PodFacts {
  const known = factsByPod.get(pod);
  if (known !== undefined) return known;
  const ready = conditionOf(pod, 'Ready');
  const since = ready?.['lastTransitionTime'];
  const t = typeof since === 'string' ? parseInstant(since) : null;
  const phase = podPhase(pod);
  const f: PodFacts = {
    phase: typeof phase === 'string' ? phase : phase === undefined || phase === null ? '' : String(phase),
    runningAndReady: phase === 'Running' && ready?.['status'] === 'True',
    readySince: t === null || t === goZeroTime ? null : t,
    terminating: pod.metadata.deletionTimestamp !== undefined,
    revision: pod.metadata.labels?.[revisionLabel],
  };
  factsByPod.set(pod, f);
  return f;
}

const goZeroTime = parseInstant('0001-01-01T00:00:00Z');

/** Always in the past: what `availableAt` gives when minReadySeconds is 0 and Ready is enough. */
export const alwaysAvailable: Instant = Number.MIN_SAFE_INTEGER;

/**
 * The first instant a running and ready pod counts as available: exactly Ready's
 * lastTransitionTime plus minReadySeconds (the spec's "minimum seconds … ready", CONTRACT.md's
 * "exactly minReadySeconds after"; Go compares with a strict Before, which in continuous time is
 * the same instant — docs/divergences.md), `alwaysAvailable` when minReadySeconds is 0; null when
 * it will not as it stands (not ready, or no non-zero transition time to count from).
 */
export function availableAt(pod: KubeObject, minReadySeconds: number): Instant | null {
  const r = factsOf(pod);
  if (!r.runningAndReady) return null;
  if (minReadySeconds <= 0) return alwaysAvailable;
  return r.readySince === null ? null : r.readySince + minReadySeconds * 1000;
}

/** The pod's health alone, as ordering and availability budgets see it. */
export function healthOf(pod: KubeObject | undefined, minReadySeconds: number, now: Instant): MemberHealth {
  if (pod === undefined) return 'Missing';
  const f = factsOf(pod);
  if (f.terminating) return 'Terminating';
  if (f.phase === 'Failed' || f.phase === 'Succeeded') return 'Failed';
  if (f.phase !== 'Running') return 'Pending';
  if (!f.runningAndReady) return 'RunningUnready';
  if (minReadySeconds <= 0) return 'Available';
  return f.readySince !== null && f.readySince + minReadySeconds * 1000 <= now ? 'Available' : 'Ready';
}

/** Unavailable: not available, or terminating (v1.34+ rule, reference §6.3). Missing counts. */
export function isUnavailable(health: MemberHealth): boolean {
  return health !== 'Available';
}

/** Whether the ordinal is in `[start, start + replicas)`. */
export function inRange(set: SetView, ordinal: number): boolean {
  return ordinal >= set.start && ordinal < set.start + set.replicas;
}

/** The phase of one member of the set at `now`. */
export function memberPhaseOf(set: SetView, member: SetMember, now: Instant): MemberPhase {
  const wanted = inRange(set, member.ordinal);
  const health = healthOf(member.pod, set.minReadySeconds, now);
  if (health === 'Missing') return wanted ? 'Missing' : 'Gone';
  if (health === 'Terminating') return 'Terminating';
  if (!wanted) return 'Condemned';
  if (health === 'Failed') return 'Failed';
  const revision = member.pod?.metadata.labels?.[revisionLabel];
  if (set.updateStrategy === 'RollingUpdate' && member.ordinal - set.start >= set.partition && revision !== set.updateRevision) return 'Outdated';
  return health;
}

/** The moves from one phase to another (possibly none). */
export function memberMoves(from: MemberPhase, to: MemberPhase): MemberMove[] {
  return movesBetween(statefulSetPodLifecycle, from, to);
}

/** Whether a member (an ordinal, whose pods come and go) can get from `from` to `to` in zero or more moves. */
export function memberCanReach(from: MemberPhase, to: MemberPhase): boolean {
  return reachableFrom(statefulSetPodLifecycle, from, true).has(to);
}

/** The phases in which the controller has a move to make: Missing, Failed, Outdated, Condemned. */
export const controllerActsOn: ReadonlySet<MemberPhase> = phasesActedOnBy(statefulSetPodLifecycle, 'statefulset-controller');
