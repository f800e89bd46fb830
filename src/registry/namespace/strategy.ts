/**
 * Namespace writes: created `Active` with the `kubernetes` finalizer in spec.finalizers; every
 * write keeps the name label. Main-resource updates keep the stored spec and status.
 */
import type { KubeObject } from '../../api/meta.ts';
import { fixedNames } from '../../api/names.ts';
import { keepStatus, strategy } from '../common/defaultStrategy.ts';
import type { Strategy, StrategyContext } from '../types.ts';
import { validateNamespace } from './validation.ts';
import { validateFinalizers } from '../validation/objectMeta.ts';

/** Every namespace carries its name as a label (`kubernetes.io/metadata.name`, renamed by the names table). */
function nameLabel(ctx: StrategyContext): string {
  return `${ctx.names.wellKnown}/metadata.name`;
}

function prepareNamespace(obj: KubeObject, ctx: StrategyContext): KubeObject {
  const name = obj.metadata.name ?? '';
  const labels = { ...(obj.metadata.labels ?? {}), [nameLabel(ctx)]: name };
  return {
    ...obj,
    metadata: { ...obj.metadata, labels },
    spec: { finalizers: [fixedNames.namespaceFinalizer] },
    status: { phase: 'Active' },
  };
}

function keepNameLabel(obj: KubeObject, old: KubeObject, ctx: StrategyContext): KubeObject {
  const out = keepStatus(obj, old);
  out['spec'] = old['spec'];
  const labels = { ...(obj.metadata.labels ?? {}), [nameLabel(ctx)]: obj.metadata.name ?? '' };
  return { ...out, metadata: { ...out.metadata, labels } };
}

/**
 * `namespaces/{name}/finalize` (namespaceFinalizeStrategy): how the namespace controller removes
 * its finalizer. Spec and metadata may change; status stays; every spec finalizer must be a
 * qualified name.
 */
export const namespaceFinalizeStrategy: Strategy = strategy({
  prepareForUpdate: (obj, old, ctx) => {
    const out = keepStatus(obj, old);
    return { ...out, metadata: { ...out.metadata, labels: { ...(obj.metadata.labels ?? {}), [nameLabel(ctx)]: obj.metadata.name ?? '' } } };
  },
  validateUpdate: (obj) => {
    const finalizers = (obj['spec'] as { finalizers?: unknown } | undefined)?.finalizers;
    return Array.isArray(finalizers) ? finalizers.flatMap((f, i) => validateFinalizers([String(f)], `spec.finalizers[${i}]`)) : [];
  },
});

export const namespaceStrategy: Strategy = strategy({
  prepareForCreate: prepareNamespace,
  validate: validateNamespace,
  prepareForUpdate: keepNameLabel,
  validateUpdate: validateNamespace,
});
