/**
 * Taints and tolerations as Kubernetes matches them (core/v1 helpers ToleratesTaint,
 * FindMatchingUntoleratedTaint, GetMatchingTolerations), the node-condition taints the node
 * lifecycle controller owns (`node.kubernetes.io/unreachable` and `not-ready`, their prefix
 * following the names mode as every well-known name does), and the two tolerations the
 * DefaultTolerationSeconds admission plugin adds to every pod that does not already tolerate them.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { isObject, objectField } from '../../core/json.ts';

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
  readonly timeAdded?: string;
}

export interface Toleration {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
  readonly tolerationSeconds?: number;
}

export const unreachableKey = (names: Names): string => `node.${names.wellKnown}/unreachable`;
export const notReadyKey = (names: Names): string => `node.${names.wellKnown}/not-ready`;

/** DefaultTolerationSeconds' `--default-unreachable-toleration-seconds` and not-ready twin. */
export const defaultTolerationSeconds = 300;

export function taintsOf(node: KubeObject): Taint[] {
  const t = objectField(node, 'spec')['taints'];
  return Array.isArray(t) ? (t.filter(isObject) as unknown as Taint[]) : [];
}

function tolerationsOf(pod: KubeObject): Toleration[] {
  const t = objectField(pod, 'spec')['tolerations'];
  return Array.isArray(t) ? (t.filter(isObject) as unknown as Toleration[]) : [];
}

/** ToleratesTaint: an empty effect or key matches all; the operator Exists ignores the value. */
export function tolerates(t: Toleration, taint: Taint): boolean {
  if ((t.effect ?? '') !== '' && t.effect !== taint.effect) return false;
  if ((t.key ?? '') !== '' && t.key !== taint.key) return false;
  const operator = t.operator ?? '';
  if (operator === 'Exists') return true;
  return (operator === '' || operator === 'Equal') && (t.value ?? '') === (taint.value ?? '');
}

/**
 * The pod's tolerations as the API server would have stored them: the simulation's pod admission
 * does not run DefaultTolerationSeconds, so its two tolerations (unreachable and not-ready,
 * NoExecute, 300 s) are added here, on the same condition: unless the pod tolerates that key
 * (or every key) for NoExecute (or every effect) already.
 */
export function effectiveTolerations(pod: KubeObject, names: Names): Toleration[] {
  const own = tolerationsOf(pod);
  const covers = (key: string): boolean => own.some((t) => ((t.key ?? '') === key || (t.key ?? '') === '') && ((t.effect ?? '') === 'NoExecute' || (t.effect ?? '') === ''));
  const added = [notReadyKey(names), unreachableKey(names)]
    .filter((key) => !covers(key))
    .map((key): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSeconds }));
  return [...own, ...added];
}

/** FindMatchingUntoleratedTaint: the first of the taints (filtered by effect) no toleration tolerates. */
export function untolerated(taints: readonly Taint[], tolerations: readonly Toleration[], effects: readonly string[]): Taint | undefined {
  return taints.find((taint) => effects.includes(taint.effect) && !tolerations.some((t) => tolerates(t, taint)));
}

/**
 * getMinTolerationTime over the tolerations GetMatchingTolerations uses (for each taint, the first
 * toleration that tolerates it): the shortest tolerationSeconds in ms (0 for a non-positive one),
 * or null when none of them sets one (tolerated forever). The taints must all be tolerated.
 */
export function minToleration(taints: readonly Taint[], tolerations: readonly Toleration[]): number | null {
  let min: number | null = null;
  for (const taint of taints) {
    const used = tolerations.find((t) => tolerates(t, taint));
    if (used?.tolerationSeconds === undefined) continue;
    const ms = Math.max(0, used.tolerationSeconds) * 1000;
    if (min === null || ms < min) min = ms;
  }
  return min;
}
