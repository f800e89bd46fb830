/**
 * The world a fresh simulation starts from, as a fresh cluster has it: the system namespaces and
 * the bootstrap RBAC policy (cluster-admin for system:masters, discovery and self-review for
 * authenticated users, …), then one settle (default service accounts); then the rules of the
 * `faults` option.
 */
import type { KubeObject } from '../api/meta.ts';
import { bootstrapPolicy } from '../auth/rbac/bootstrapPolicy.ts';
import { assert } from '../core/assert.ts';
import type { ResourceTable } from '../registry/index.ts';
import { create } from '../store/ops/create.ts';
import { emptyWorld, type World } from '../store/world.ts';
import type { ResolvedOptions } from './options.ts';
import { settleWorld } from './scheduler.ts';
import { installFaults } from './faults.ts';

function createAll(world: World, table: ResourceTable, id: string, objects: readonly KubeObject[]): World {
  const rt = table.byId(id);
  assert(rt !== undefined, `bootstrap: ${id} is not served`);
  let w = world;
  for (const obj of objects) {
    const r = create({ world: w, rt, registry: table, names: table.names, dryRun: false, fieldManager: 'platform-sim', subresource: '' }, obj, obj.metadata.namespace ?? '');
    assert(r.ok, `bootstrap: creating ${id} ${obj.metadata.name ?? ''} failed`);
    w = r.world;
  }
  return w;
}

export function bootstrapWorld(opts: ResolvedOptions, table: ResourceTable): World {
  let w = emptyWorld(opts.seed, opts.start, opts.config);
  w = createAll(w, table, 'core/namespaces', table.names.systemNamespaces.map((name) => ({ metadata: { name } })));
  const policy = bootstrapPolicy(table.names);
  w = createAll(w, table, 'rbac/clusterroles', policy.clusterRoles);
  w = createAll(w, table, 'rbac/clusterrolebindings', policy.clusterRoleBindings);
  w = settleWorld(w, table).world;
  // The `faults` option's rules are there from the simulation's start, not the cluster's: its own
  // bootstrap (the default service accounts) does not meet them.
  return opts.faults.length > 0 ? installFaults(w, opts.faults) : w;
}
