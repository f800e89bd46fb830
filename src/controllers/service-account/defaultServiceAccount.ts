/**
 * The service-account controller's one job we simulate: every active namespace has a
 * ServiceAccount named `default`, recreated if deleted.
 */
import { listObjects, getObject } from '../../store/objects.ts';
import { controllerManagerActor, type Controller, type Intent } from '../types.ts';

export const defaultServiceAccountController: Controller = {
  name: 'serviceaccount-controller',
  actor: controllerManagerActor('service-account-controller'),
  watches: ['core/namespaces', 'core/serviceaccounts'],
  reconcile(world) {
    const intents: Intent[] = [];
    for (const ns of listObjects(world, 'core/namespaces', null)) {
      if (ns.metadata.deletionTimestamp !== undefined) continue;
      const name = ns.metadata.name ?? '';
      if (getObject(world, 'core/serviceaccounts', name, 'default') !== undefined) continue;
      intents.push({ type: 'create', resource: 'core/serviceaccounts', object: { metadata: { name: 'default', namespace: name } } });
    }
    return intents;
  },
  nextWakeup: () => null,
};
