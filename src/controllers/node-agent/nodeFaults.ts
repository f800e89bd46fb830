/**
 * The `node` fault rules (docs/faults.md), as the node agent and the node lifecycle controller read
 * them from `world.faults`: which are installed, the moment each takes effect (installed + `from`),
 * since when the kubelet is silent (`nodeLost`), and whether a rule selects a pod (`namespaces`,
 * `names`, `when`). The format is defined and validated in sim/faultRules.ts; controllers may not
 * import sim/, so the few fields read here are restated as a structural type.
 */
import type { KubeObject } from '../../api/meta.ts';
import { parseDuration, type Instant } from '../../core/duration.ts';
import { parseFieldPath, readFieldPath } from '../../core/fieldPath.ts';
import { canonicalJson, deepEqual, isObject } from '../../core/json.ts';
import type { World } from '../../store/world.ts';

export type NodeAction = 'podNeverReady' | 'podFails' | 'nodeLost';

/** The fields of a `node` rule the agent reads (sim/faultRules.ts NodeFault). */
export interface NodeRule {
  readonly kind: 'node';
  readonly action: NodeAction;
  readonly after?: number;
  readonly times?: number;
  readonly probability?: number;
  readonly when?: Readonly<Record<string, unknown>>;
  readonly namespaces?: readonly string[];
  readonly names?: readonly string[];
  readonly from?: string;
}

/** A node rule as installed. */
export interface InstalledNodeRule {
  /** `<index in world.faults>@<installed at>`: where the agent keeps what the rule did. */
  readonly key: string;
  /** The rule as canonical JSON: another rule later installed at the same place is not taken for it. */
  readonly text: string;
  readonly rule: NodeRule;
  /** When it takes effect: installed + `from`. */
  readonly at: Instant;
}

const none: readonly InstalledNodeRule[] = [];
const byFaults = new WeakMap<object, readonly InstalledNodeRule[]>();

/** The node rules installed, in the order they were (a stored list never changes: worked out once). */
export function nodeRules(world: World): readonly InstalledNodeRule[] {
  const faults = world.faults;
  if (faults === undefined || faults.length === 0) return none;
  const known = byFaults.get(faults);
  if (known !== undefined) return known;
  const rules: InstalledNodeRule[] = [];
  faults.forEach((state, i) => {
    const rule = state.rule;
    if (!isObject(rule) || rule['kind'] !== 'node') return;
    const installedAt = (state as { readonly installedAt?: Instant }).installedAt ?? world.now;
    const from = typeof rule['from'] === 'string' ? (parseDuration(rule['from']) ?? 0) : 0;
    rules.push({ key: `${i}@${installedAt}`, text: canonicalJson(rule), rule: rule as unknown as NodeRule, at: installedAt + from });
  });
  byFaults.set(faults, rules);
  return rules;
}

/** The rules of one action that have taken effect by now. */
export function activeRules(world: World, action: NodeAction): readonly InstalledNodeRule[] {
  const all = nodeRules(world);
  return all.length === 0 ? none : all.filter((r) => r.rule.action === action && r.at <= world.now);
}

/**
 * Since when the kubelet of the node is silent: the earliest moment of a `nodeLost` rule that has
 * taken effect, or null while it posts. Its last heartbeat is that moment.
 */
export function kubeletStoppedAt(world: World): Instant | null {
  let at: Instant | null = null;
  for (const r of activeRules(world, 'nodeLost')) if (at === null || r.at < at) at = r.at;
  return at;
}

/** When the kubelet stops, now or later: the earliest moment of any `nodeLost` rule installed. */
export function kubeletStopsAt(world: World): Instant | null {
  let at: Instant | null = null;
  for (const r of nodeRules(world)) if (r.rule.action === 'nodeLost' && (at === null || r.at < at)) at = r.at;
  return at;
}

/** Whether a selection list admits a value: absent, empty, `*` or naming it (as faultRules.ts admits). */
function admits(list: readonly string[] | undefined, value: string): boolean {
  return list === undefined || list.length === 0 || list.includes('*') || list.includes(value);
}

/** Whether the object holds every `when` value (JSON equality) at its field path. */
function holds(when: Readonly<Record<string, unknown>> | undefined, object: KubeObject): boolean {
  for (const [path, expected] of Object.entries(when ?? {})) {
    const segments = parseFieldPath(path);
    if (typeof segments === 'string') return false;
    const found = readFieldPath(object, segments);
    if (!found.found || !deepEqual(found.value, expected)) return false;
  }
  return true;
}

/** Whether a rule selects this pod: its namespace, its name and its state (`when`). */
export function selects(rule: NodeRule, pod: KubeObject): boolean {
  return admits(rule.namespaces, pod.metadata.namespace ?? '') && admits(rule.names, pod.metadata.name ?? '') && holds(rule.when, pod);
}
