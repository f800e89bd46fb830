/**
 * The garbage collector, driven by the watch log rather than a scan: every change after its
 * cursor names the owners and dependents to look at. A dependent none of whose owners exists
 * (same uid) is deleted; dangling references beside a live owner are removed. An owner being
 * deleted in the foreground has its dependents deleted and loses `foregroundDeletion` once no
 * blocking dependent remains; an owner deleted with `orphan` has its references removed from
 * every dependent, then loses `orphan`. When the history after its cursor is compacted away (it
 * restarted without its memory after a crash, or was paused past a compaction) it relists instead,
 * as the real collector rebuilds its graph from a full list on start: every dependent in the owner
 * index and every object held by one of its finalizers gets a look.
 */
import type { KubeObject, OwnerReference } from '../../api/meta.ts';
import { fixedNames } from '../../api/names.ts';
import { parseGroupVersion } from '../../api/meta.ts';
import { entriesAfter } from '../../store/history.ts';
import { getObject, listObjects } from '../../store/objects.ts';
import { trieSortedKeys } from '../../store/trie.ts';
import { dependentsOf, parseDependentKey } from '../../store/ownerIndex.ts';
import type { World } from '../../store/world.ts';
import { controllerManagerActor, type Controller, type ControllerEnv, type Intent } from '../types.ts';

const name = 'garbage-collector';

interface Memory {
  readonly cursor: number;
}

function ownerOf(world: World, env: ControllerEnv, dependent: KubeObject, ref: OwnerReference): KubeObject | undefined {
  const rt = env.registry.byGroupKind(parseGroupVersion(ref.apiVersion).group, ref.kind);
  if (rt === undefined) return undefined;
  const owner = getObject(world, rt.id, rt.namespaced ? (dependent.metadata.namespace ?? '') : '', ref.name);
  return owner !== undefined && owner.metadata.uid === ref.uid ? owner : undefined;
}

function isDeletingWith(obj: KubeObject | undefined, finalizer: string): boolean {
  return obj !== undefined && obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(finalizer);
}

/** What to do with one dependent given the current state of its owners. */
function attendDependent(world: World, env: ControllerEnv, resource: string, dep: KubeObject): Intent | null {
  if (dep.metadata.deletionTimestamp !== undefined) return null;
  const refs = dep.metadata.ownerReferences ?? [];
  if (refs.length === 0) return null;
  const owners = refs.map((r) => ({ ref: r, owner: ownerOf(world, env, dep, r) }));
  const orphaning = owners.filter((o) => isDeletingWith(o.owner, fixedNames.orphanFinalizer));
  const dangling = owners.filter((o) => o.owner === undefined);
  const live = owners.filter((o) => o.owner !== undefined && !isDeletingWith(o.owner, fixedNames.orphanFinalizer));
  const ns = dep.metadata.namespace ?? '';
  const depName = dep.metadata.name ?? '';
  if (live.length === 0 && orphaning.length === 0) {
    return { type: 'delete', resource, namespace: ns, name: depName, uid: dep.metadata.uid ?? '', propagationPolicy: 'Background' };
  }
  const foreground = live.some((o) => isDeletingWith(o.owner, fixedNames.foregroundFinalizer));
  if (foreground && live.every((o) => o.owner!.metadata.deletionTimestamp !== undefined)) {
    // As attemptToDeleteItem: in the foreground only when the dependent has dependents of its own
    // (the owner then waits for those too); otherwise a plain background delete, one write.
    const hasDependents = dependentsOf(world.owners, dep.metadata.uid ?? '').length > 0;
    return { type: 'delete', resource, namespace: ns, name: depName, uid: dep.metadata.uid ?? '', propagationPolicy: hasDependents ? 'Foreground' : 'Background' };
  }
  if (dangling.length > 0 || orphaning.length > 0) {
    const keep = refs.filter((r) => live.some((o) => o.ref === r));
    const meta = { ...dep.metadata };
    if (keep.length === 0) delete meta.ownerReferences;
    else meta.ownerReferences = keep;
    return { type: 'update', resource, subresource: '', object: { ...dep, metadata: meta } };
  }
  return null;
}

/** An owner in foreground or orphan deletion loses its finalizer once its dependents are handled. */
function attendOwner(world: World, resource: string, owner: KubeObject): Intent | null {
  // Only an owner being deleted with a finalizer of ours waits on its dependents.
  if (!isDeletingWith(owner, fixedNames.orphanFinalizer) && !isDeletingWith(owner, fixedNames.foregroundFinalizer)) return null;
  const deps = dependentsOf(world.owners, owner.metadata.uid ?? '').map(parseDependentKey);
  const fin = owner.metadata.finalizers ?? [];
  let drop: string | null = null;
  if (isDeletingWith(owner, fixedNames.orphanFinalizer) && deps.length === 0) drop = fixedNames.orphanFinalizer;
  if (isDeletingWith(owner, fixedNames.foregroundFinalizer)) {
    const blocking = deps.some((d) => {
      const obj = getObject(world, d.resource, d.namespace, d.name);
      return (obj?.metadata.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid && r.blockOwnerDeletion === true);
    });
    if (!blocking) drop = fixedNames.foregroundFinalizer;
  }
  if (drop === null) return null;
  const rest = fin.filter((f) => f !== drop);
  const meta = { ...owner.metadata };
  if (rest.length === 0) delete meta.finalizers;
  else meta.finalizers = rest;
  return { type: 'update', resource, subresource: '', object: { ...owner, metadata: meta } };
}

/** Whether a change could matter to the owner's dependents: it appeared, went, or its deletion state moved. */
function ownerStateChanged(e: { readonly type: string; readonly object: KubeObject; readonly prev: KubeObject | null }): boolean {
  if (e.type !== 'MODIFIED' || e.prev === null) return true;
  const a = e.object.metadata;
  const b = e.prev.metadata;
  return a.deletionTimestamp !== b.deletionTimestamp || JSON.stringify(a.finalizers ?? []) !== JSON.stringify(b.finalizers ?? []) || a.uid !== b.uid;
}

export const garbageCollector: Controller = {
  name,
  actor: controllerManagerActor('generic-garbage-collector'),
  reconcile(world, env) {
    const memory = (world.controllers[name] as Memory | undefined) ?? { cursor: 0 };
    if (memory.cursor >= world.revision) return [];
    const intents = new Map<string, Intent>();
    const add = (key: string, i: Intent | null): void => {
      if (i !== null && !intents.has(key)) intents.set(key, i);
    };
    const visitDependent = (resource: string, ns: string, n: string): void => {
      const dep = getObject(world, resource, ns, n);
      if (dep !== undefined) add(`${resource}|${ns}|${n}`, attendDependent(world, env, resource, dep));
    };
    if (memory.cursor < world.compactedRevision) {
      for (const owner of trieSortedKeys(world.owners)) for (const d of dependentsOf(world.owners, owner).map(parseDependentKey)) visitDependent(d.resource, d.namespace, d.name);
      for (const rt of env.registry.all) {
        for (const o of listObjects(world, rt.id, null)) {
          if (o.metadata.deletionTimestamp !== undefined) add(`${rt.id}|${o.metadata.namespace ?? ''}|${o.metadata.name ?? ''}`, attendOwner(world, rt.id, o));
        }
      }
    }
    for (const e of entriesAfter(world.log, memory.cursor)) {
      if (e.type !== 'DELETED' && (e.object.metadata.ownerReferences ?? []).length > 0) visitDependent(e.resource, e.namespace, e.name);
      const uid = e.object.metadata.uid ?? '';
      // An owner's dependents need a look only when its existence or deletion state changed: a
      // status write of a StatefulSet says nothing new to its thousand pods.
      if (ownerStateChanged(e)) for (const d of dependentsOf(world.owners, uid).map(parseDependentKey)) visitDependent(d.resource, d.namespace, d.name);
      // A dependent that went, or that dropped a reference, may unblock its owners.
      const formerRefs = e.type === 'DELETED' ? (e.object.metadata.ownerReferences ?? []) : (e.prev?.metadata.ownerReferences ?? []);
      for (const ref of formerRefs) {
        for (const rt of env.registry.all) {
          const owner = getObject(world, rt.id, rt.namespaced ? e.namespace : '', ref.name);
          if (owner !== undefined && owner.metadata.uid === ref.uid) add(`${rt.id}|${owner.metadata.namespace ?? ''}|${ref.name}`, attendOwner(world, rt.id, owner));
        }
      }
      const current = getObject(world, e.resource, e.namespace, e.name);
      if (current !== undefined && current.metadata.deletionTimestamp !== undefined) add(`${e.resource}|${e.namespace}|${e.name}`, attendOwner(world, e.resource, current));
    }
    const out = [...intents.values()];
    out.push({ type: 'remember', controller: name, state: { cursor: world.revision } satisfies Memory });
    return out;
  },
  nextWakeup: () => null,
};

