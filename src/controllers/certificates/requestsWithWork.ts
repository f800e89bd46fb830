/**
 * The requests a certificate controller has a move out of (hasWork: the approver's Pending, the
 * signer's Approved), kept as a view of the request store (store/views.ts): a settle round costs
 * the requests that changed, not every request ever made — a cluster keeps issued requests for an
 * hour, so they pile up.
 */
import type { KubeObject } from '../../api/meta.ts';
import { assert } from '../../core/assert.ts';
import { hasWork, type CsrActor } from '../../registry/certificates/csr/lifecycle.ts';
import { compareStorageKeys, listObjects } from '../../store/objects.ts';
import { ResourceView } from '../../store/views.ts';
import type { World } from '../../store/world.ts';
import type { ControllerEnv } from '../types.ts';

const csrs = 'certificates/certificatesigningrequests';

export function requestsWithWork(actor: CsrActor): (world: World, env: ControllerEnv) => KubeObject[] {
  // Requests are cluster-scoped: keyed by name.
  const view = new ResourceView<Map<string, KubeObject>>(csrs, {
    empty: () => new Map(),
    change(state, _namespace, name, _before, after) {
      if (after !== undefined && hasWork(actor, after)) state.set(name, after);
      else state.delete(name);
    },
  });
  return (world, env) => {
    const pending = [...view.read(world).values()].sort(compareStorageKeys);
    if (env.checkViews === true) {
      const listed = listObjects(world, csrs, null).filter((csr) => hasWork(actor, csr));
      assert(listed.length === pending.length && listed.every((csr, i) => csr === pending[i]), `${actor}: the kept view of requests with work is stale`);
    }
    return pending;
  };
}
