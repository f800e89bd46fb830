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
import { entriesAfter, entryAt, type LogEntry } from '../../store/history.ts';
import { getObject, listObjects } from '../../store/objects.ts';
import { trieSortedKeys } from '../../store/trie.ts';
import { dependentsOf, parseDependentKey } from '../../store/ownerIndex.ts';
import type { World } from '../../store/world.ts';
import { assert } from '../../core/assert.ts';
import { compareStrings } from '../../core/compareStrings.ts';
import { getOwn } from '../../core/json.ts';
import { controllerManagerActor, describeIntent, type Controller, type ControllerEnv, type Intent } from '../types.ts';

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
  return a.deletionTimestamp !== b.deletionTimestamp || !sameStrings(a.finalizers ?? [], b.finalizers ?? []) || a.uid !== b.uid;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * How far the remembered cursor may fall behind the log before the collector writes it although
 * it found nothing: a collector without this process's note (below) rescans at most this many
 * entries, and finds nothing in them again — as the check under `checkInvariants` does on every
 * read, which is why the bound is small (one memory write per 8 revisions costs little).
 */
const cursorLagMax = 8;

/**
 * The newest log entry this process saw the collector find nothing up to: a note, not state. The
 * collector remembers its cursor only when it acts (or the cursor lags too far, or falls below
 * what the next compaction reaches), so that a write nothing depends on costs no memory write and
 * no second settle round; a world whose log holds that very entry shares its history up to there,
 * and the collector reads on from it. Without the note (a
 * world restored elsewhere, another simulation in between) it reads from its remembered cursor
 * and finds the same: every change that can give an object work (an owner appearing, going or
 * starting deletion, a dependent changing or going) is an entry after the note that visits it,
 * and what it visited before the note needed nothing then and has not changed since. Verified
 * under `checkInvariants`.
 */
let quietThrough: LogEntry | null = null;

/** Where to read on from: the note when this world's log holds it past the cursor, else the cursor. */
function readFrom(world: World, cursor: number): number {
  const q = quietThrough;
  if (q === null || q.rv <= cursor || q.rv > world.revision) return cursor;
  return entryAt(world.log, q.rv) === q ? q.rv : cursor;
}

/**
 * The intents the changes after `from` call for (after a relist, when the history after the
 * cursor is gone), in the order of their objects' keys: where the reading starts must not decide
 * the order of the writes (it would decide their revisions).
 */
function collect(world: World, env: ControllerEnv, from: number, relist: boolean): Intent[] {
  // Made at the first intent: most reads of the log find nothing to do.
  let intents: Map<string, Intent> | undefined;
  const add = (key: string, i: Intent | null): void => {
    if (i === null) return;
    intents ??= new Map();
    if (!intents.has(key)) intents.set(key, i);
  };
  const visitDependent = (resource: string, ns: string, n: string): void => {
    const dep = getObject(world, resource, ns, n);
    if (dep !== undefined) add(`${resource}|${ns}|${n}`, attendDependent(world, env, resource, dep));
  };
  if (relist) {
    for (const owner of trieSortedKeys(world.owners)) for (const d of dependentsOf(world.owners, owner).map(parseDependentKey)) visitDependent(d.resource, d.namespace, d.name);
    for (const rt of env.registry.all) {
      for (const o of listObjects(world, rt.id, null)) {
        if (o.metadata.deletionTimestamp !== undefined) add(`${rt.id}|${o.metadata.namespace ?? ''}|${o.metadata.name ?? ''}`, attendOwner(world, rt.id, o));
      }
    }
  }
  for (const e of entriesAfter(world.log, from)) {
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
    // A terminating object as it is now. An entry whose object is not terminating can skip the
    // look: deletion marks stay, so if the object is terminating now, a later entry of this read
    // (the one that marked it, or any change since) carries the mark and looks.
    if (e.type === 'DELETED' || e.object.metadata.deletionTimestamp !== undefined) {
      const current = getObject(world, e.resource, e.namespace, e.name);
      if (current !== undefined && current.metadata.deletionTimestamp !== undefined) add(`${e.resource}|${e.namespace}|${e.name}`, attendOwner(world, e.resource, current));
    }
  }
  if (intents === undefined) return [];
  const found = intents;
  return [...found.keys()].sort(compareStrings).map((k) => found.get(k)!);
}

export const garbageCollector: Controller = {
  name,
  actor: controllerManagerActor('generic-garbage-collector'),
  reconcile(world, env) {
    const stored = getOwn(world.controllers, name) as Memory | undefined;
    const cursor = stored?.cursor ?? 0;
    if (cursor >= world.revision) return [];
    const relist = cursor < world.compactedRevision;
    // The cursor is written when the memory is new, after a relist, when it lags too far, or when
    // it is below the revision the next compaction tick compacts to (`revisionAtLastCompaction`):
    // compaction then never overtakes it and forces a relist.
    const mustRemember = stored === undefined || relist || world.revision - cursor >= cursorLagMax || cursor < world.revisionAtLastCompaction;
    const from = relist ? cursor : readFrom(world, cursor);
    if (!mustRemember && from >= world.revision) return [];
    const out = collect(world, env, from, relist);
    if (env.checkViews === true && from > cursor) {
      const all = collect(world, env, cursor, relist).map(describeIntent);
      const found = out.map(describeIntent);
      assert(JSON.stringify(all) === JSON.stringify(found), `${name}: reading on from revision ${from} found ${found.join('; ') || 'nothing'}, reading from its cursor ${cursor} finds ${all.join('; ') || 'nothing'}`);
    }
    if (out.length === 0 && !mustRemember) {
      quietThrough = entryAt(world.log, world.revision) ?? null;
      return [];
    }
    out.push({ type: 'remember', controller: name, state: { cursor: world.revision } satisfies Memory });
    return out;
  },
  nextWakeup: () => null,
};
