/**
 * The namespace controller: a terminating namespace is emptied (every namespaced object in it
 * deleted), then its `kubernetes` finalizer is removed, which removes the namespace.
 */
import type { KubeObject } from '../../api/meta.ts';
import { fixedNames } from '../../api/names.ts';
import { listObjects } from '../../store/objects.ts';
import { controllerManagerActor, type Controller, type Intent } from '../types.ts';

export const namespaceController: Controller = {
  name: 'namespace-controller',
  actor: controllerManagerActor('namespace-controller'),
  reconcile(world, env) {
    const intents: Intent[] = [];
    for (const ns of listObjects(world, 'core/namespaces', null)) {
      if (ns.metadata.deletionTimestamp === undefined) continue;
      const name = ns.metadata.name ?? '';
      let remaining = 0;
      for (const rt of env.registry.all) {
        if (!rt.namespaced) continue;
        for (const obj of listObjects(world, rt.id, name)) {
          remaining++;
          if (obj.metadata.deletionTimestamp === undefined) {
            intents.push({ type: 'delete', resource: rt.id, namespace: name, name: obj.metadata.name ?? '', uid: obj.metadata.uid ?? '', propagationPolicy: 'Background' });
          }
        }
      }
      const spec = (ns['spec'] ?? {}) as { finalizers?: string[] };
      if (remaining === 0 && (spec.finalizers ?? []).includes(fixedNames.namespaceFinalizer)) {
        const finalized: KubeObject = { ...ns, spec: { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== fixedNames.namespaceFinalizer) } };
        intents.push({ type: 'update', resource: 'core/namespaces', subresource: 'finalize', object: finalized });
      }
    }
    return intents;
  },
  nextWakeup: () => null,
};
