/**
 * A StatefulSet's spec as the controller reads it: typed, with the absent-field rules of the real
 * controller (no rollingUpdate means partition 0 and maxUnavailable 1; no ordinals means start 0).
 * The API server has already applied the apps/v1 defaults to every stored set.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, objectField, type JsonObject } from '../../core/json.ts';
import { labelSelectorFromObject, type LabelSelectorObject } from '../../registry/selectors/labelSelectorObject.ts';
import type { LabelSelector } from '../../registry/selectors/labelSelector.ts';

export type RetentionPolicy = 'Retain' | 'Delete';

export interface SetSpec {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly replicas: number;
  /** `spec.ordinals.start`: the ordinals are `[start, start + replicas)`. */
  readonly start: number;
  readonly selector: LabelSelector | null;
  readonly matchLabels: Readonly<Record<string, string>>;
  readonly serviceName: string;
  readonly parallel: boolean;
  readonly updateStrategy: 'RollingUpdate' | 'OnDelete';
  /** `rollingUpdate` is present (the versioned-pod rule and the partition depend on it). */
  readonly hasRollingUpdate: boolean;
  readonly partition: number;
  /** `rollingUpdate.maxUnavailable` as written (integer or percentage), absent → 1. */
  readonly maxUnavailable: number | string;
  readonly minReadySeconds: number;
  readonly revisionHistoryLimit: number;
  readonly whenDeleted: RetentionPolicy;
  readonly whenScaled: RetentionPolicy;
  readonly claimTemplates: readonly KubeObject[];
  readonly deleting: boolean;
}

const int = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** Specs by stored set object: a set's spec is read once per version, not once per settle round. */
const specs = new WeakMap<KubeObject, SetSpec>();

export function readSpec(set: KubeObject): SetSpec {
  const known = specs.get(set);
  if (known !== undefined) return known;
  const spec = parseSpec(set);
  specs.set(set, spec);
  return spec;
}

/** Parsed selectors by stored selector object: a status write makes a new set, not a new selector. */
const selectors = new WeakMap<object, ReturnType<typeof labelSelectorFromObject>>();

function parsedSelector(sel: JsonObject): ReturnType<typeof labelSelectorFromObject> {
  let parsed = selectors.get(sel);
  if (parsed === undefined) selectors.set(sel, (parsed = labelSelectorFromObject(sel as unknown as LabelSelectorObject, 'spec.selector')));
  return parsed;
}

function parseSpec(set: KubeObject): SetSpec {
  const spec = objectField(set, 'spec');
  const strategy = objectField(spec, 'updateStrategy');
  const rolling = isObject(strategy['rollingUpdate']) ? strategy['rollingUpdate'] : null;
  const retention = objectField(spec, 'persistentVolumeClaimRetentionPolicy');
  const sel = spec['selector'];
  const parsed = isObject(sel) ? parsedSelector(sel) : null;
  const matchLabels = isObject(sel) && isObject(sel['matchLabels']) ? (sel['matchLabels'] as Record<string, string>) : {};
  const maxUnavailable = rolling?.['maxUnavailable'];
  return {
    name: set.metadata.name ?? '',
    namespace: set.metadata.namespace ?? '',
    uid: set.metadata.uid ?? '',
    replicas: int(spec['replicas'], 1),
    start: int(objectField(spec, 'ordinals')['start'], 0),
    selector: parsed !== null && parsed.ok ? parsed.selector : null,
    matchLabels,
    serviceName: typeof spec['serviceName'] === 'string' ? spec['serviceName'] : '',
    parallel: spec['podManagementPolicy'] === 'Parallel',
    updateStrategy: strategy['type'] === 'OnDelete' ? 'OnDelete' : 'RollingUpdate',
    hasRollingUpdate: rolling !== null,
    partition: int(rolling?.['partition'], 0),
    maxUnavailable: typeof maxUnavailable === 'number' || typeof maxUnavailable === 'string' ? maxUnavailable : 1,
    minReadySeconds: int(spec['minReadySeconds'], 0),
    revisionHistoryLimit: int(spec['revisionHistoryLimit'], 10),
    whenDeleted: retention['whenDeleted'] === 'Delete' ? 'Delete' : 'Retain',
    whenScaled: retention['whenScaled'] === 'Delete' ? 'Delete' : 'Retain',
    claimTemplates: Array.isArray(spec['volumeClaimTemplates']) ? (spec['volumeClaimTemplates'].filter(isObject) as unknown as KubeObject[]) : [],
    deleting: set.metadata.deletionTimestamp !== undefined,
  };
}

/**
 * maxUnavailable as a number of pods: integers as written, percentages of `replicas` rounded
 * down, then at least 1 (CONTRACT.md rule 6; reference §6.5b).
 */
export function scaledMaxUnavailable(spec: SetSpec): number {
  const v = spec.maxUnavailable;
  const n = typeof v === 'number' ? v : Math.floor((spec.replicas * Number.parseInt(v, 10)) / 100);
  return Math.max(1, Number.isFinite(n) ? n : 1);
}

export function templateOf(set: KubeObject): JsonObject {
  return objectField(objectField(set, 'spec'), 'template');
}
