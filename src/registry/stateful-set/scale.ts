/**
 * The `scale` subresource (autoscaling/v1 Scale): the replica count of a StatefulSet, read and
 * written without touching the rest of it.
 */
import type { KubeObject } from '../../api/meta.ts';
import { objectMetaSchema } from '../../api/meta.ts';
import { s } from '../../api/schema.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { objectField, type JsonObject } from '../../core/json.ts';
import { labelSelectorFromObject, type LabelSelectorObject } from '../selectors/labelSelectorObject.ts';
import { labelSelectorToString } from '../selectors/labelSelectorToString.ts';

export const scaleSchema = s.struct('Scale', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: s.struct('ScaleSpec', { replicas: s.int32() }),
  status: s.struct('ScaleStatus', { replicas: s.int32(), selector: s.string() }),
});

export function scaleOf(sts: KubeObject): KubeObject {
  const spec: JsonObject = objectField(sts, 'spec');
  const status: JsonObject = objectField(sts, 'status');
  const sel = spec['selector'] === undefined ? null : labelSelectorFromObject(spec['selector'] as LabelSelectorObject, 'spec.selector');
  const m = sts.metadata;
  const metadata = {
    name: m.name ?? '',
    namespace: m.namespace ?? '',
    uid: m.uid ?? '',
    resourceVersion: m.resourceVersion ?? '',
    creationTimestamp: m.creationTimestamp ?? '',
  };
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: typeof spec['replicas'] === 'number' ? spec['replicas'] : 0 },
    status: { replicas: typeof status['replicas'] === 'number' ? status['replicas'] : 0, ...(sel !== null && sel.ok ? { selector: labelSelectorToString(sel.selector) } : {}) },
  } as unknown as KubeObject;
}

export function validateScale(scale: KubeObject): FieldError[] {
  const spec: JsonObject = objectField(scale, 'spec');
  const r = spec['replicas'];
  return typeof r === 'number' && r < 0 ? [fieldError.invalid('spec.replicas', r, 'must be greater than or equal to 0')] : [];
}

/** The StatefulSet with the Scale's replicas (and its resourceVersion as the precondition). */
export function applyScale(sts: KubeObject, scale: KubeObject): KubeObject {
  const spec: JsonObject = objectField(scale, 'spec');
  const replicas = typeof spec['replicas'] === 'number' ? spec['replicas'] : 0;
  const rv = scale.metadata?.resourceVersion;
  return {
    ...sts,
    metadata: { ...sts.metadata, ...(rv === undefined || rv === '' ? {} : { resourceVersion: rv }) },
    spec: { ...objectField(sts, 'spec'), replicas },
  };
}
