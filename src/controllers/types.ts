/**
 * Controllers are pure: `reconcile(world)` returns intents, the writes a controller wants, and
 * the simulation runs each one through the same store operations, strategies, validation and
 * managed fields as an API request, under the controller's own field manager and identity (as
 * a real controller writes through its client). Controllers never write and never call an edge.
 * An intent the API rejects is a bug in the controller: it is reported, never dropped silently —
 * unless an injected fault refused it, the API server's trouble: then its work item is retried
 * with backoff (sim/controllerWrites.ts), as the real controller's work queue does.
 */
import type { KubeObject } from '../api/meta.ts';
import type { Instant } from '../core/duration.ts';
import type { World } from '../store/world.ts';
import type { LogEntry } from '../store/history.ts';
import type { RegistryView } from '../registry/types.ts';
import type { Names } from '../api/names.ts';
import type { PropagationPolicy } from '../store/ops/delete.ts';
import type { CryptoFacts } from '../api/crypto.ts';
import type { UserInfo } from '../api/userInfo.ts';

/** The endpoints a controller updates through, as the real controllers do. */
export type UpdateSubresource = '' | 'status' | 'approval' | 'finalize' | 'scale';

/**
 * How a controller reports a write, as the real one does with its event recorder: an event on
 * `involved` when the API accepts it, and when the API refuses it — which the controller expects
 * may happen (a pod its template makes invalid, a name taken by someone else's object), so it is
 * not a bug report — a Warning event `<messagePrefix><Status message>` and a retry of the work
 * item `key` with backoff (controllers/retries.ts). A reconcile in which none of an item's writes
 * is refused forgets the item's failures.
 */
export interface Report {
  readonly key: string;
  readonly involved: KubeObject;
  readonly accepted?: readonly { readonly type?: 'Normal' | 'Warning'; readonly reason: string; readonly message: string }[];
  readonly refused?: { readonly reason: string; readonly messagePrefix: string };
  /**
   * The item's later writes need this one: when it is refused the sync of the item ends here, as
   * the real controller returns the error — `sync`: nothing more (a StatefulSet's pods are not
   * made before its revision is stored, nor before it has adopted them); `members`: only its
   * status is still written (a pod is not made without its claim, and the real controller still
   * reports status after a member's error).
   */
  readonly prerequisite?: 'sync' | 'members';
}

/** A write a controller wants, applied as an API write (sim/intents.ts). */
export type Intent = IntentBody & { readonly report?: Report };

type IntentBody =
  /**
   * POST of a new object; with `subresource: 'binding'` the object is a Binding posted to
   * `pods/{name}/binding`, as the scheduler binds a pod to a node.
   */
  | { readonly type: 'create'; readonly resource: string; readonly object: KubeObject; readonly subresource?: 'binding' }
  /**
   * PUT of the object as the controller read it, changed: `metadata.resourceVersion` is the one
   * it read, so a write based on a stale read is a conflict, as for any client.
   */
  | { readonly type: 'update'; readonly resource: string; readonly subresource: UpdateSubresource; readonly object: KubeObject }
  /** DELETE with the uid the controller saw as a precondition. */
  | {
      readonly type: 'delete';
      readonly resource: string;
      readonly namespace: string;
      readonly name: string;
      readonly uid: string;
      readonly propagationPolicy?: PropagationPolicy;
      readonly gracePeriodSeconds?: number;
    }
  /** Controller bookkeeping kept in `world.controllers[name]` (never an API object). */
  | { readonly type: 'remember'; readonly controller: string; readonly state: unknown };

/** Who a controller writes as: the real component's field manager and user. */
export interface Actor {
  readonly manager: string;
  readonly user: UserInfo;
}

/** What the built-in certificate signers are configured with. */
export interface SigningConfig {
  /** When the signing CA stops being valid (epoch ms). */
  readonly caNotAfter: number;
  /** Longest certificate issued (`clusterSigningDuration`), seconds. */
  readonly maxDurationSeconds: number;
}

export interface ControllerEnv {
  readonly registry: RegistryView & { readonly all: readonly { readonly id: string; readonly namespaced: boolean }[] };
  readonly names: Names;
  /** Signatures and parsed certificates, as facts (api/crypto.ts). */
  readonly crypto: CryptoFacts;
  readonly signing: SigningConfig;
  /**
   * Check every answer a controller takes from an incrementally kept view against working it out
   * from scratch (set under `checkInvariants`; slow).
   */
  readonly checkViews?: boolean;
}

/** The services a step gives its controllers. */
export interface ControllerServices {
  readonly crypto: CryptoFacts;
  readonly signing: SigningConfig;
  /** Run controllers the scheduler would skip anyway, and fail if they had work (`checkInvariants`). */
  readonly checkSkips?: boolean;
}

export interface Controller {
  readonly name: string;
  /**
   * The resources (`core/pods`) whose objects `reconcile` and `nextWakeup` read. Besides them a
   * controller may read only the instant, its own remembered state, the retries and the world's
   * config. Declared, the scheduler skips the controller while nothing of that changed since a
   * reconcile of it found nothing to do, and reuses its `nextWakeup` until that instant comes
   * (so `nextWakeup` must be the earliest of a set of instants its inputs fix, after `now`);
   * with `checkInvariants` every skip is verified by running it anyway. Absent: it runs every
   * round (the garbage collector reads the watch log; the certificate controllers read crypto
   * facts the edge establishes between steps), but for a round after one that changed only
   * other controllers' memory, which it never reads.
   */
  readonly watches?: readonly string[];
  /**
   * With `watches`: whether a change of a watched resource can give this controller work. A
   * controller that found nothing to do stays skipped over changes it does not react to (a
   * ServiceAccount other than `default` is nothing to the service-account controller), judged
   * from the watch log's entries since. Must hold exactly: reconcile finds nothing after any
   * series of such changes if it found nothing before them (verified like every skip).
   * Absent: every change of a watched resource counts.
   */
  readonly reactsTo?: (change: LogEntry) => boolean;
  /** The identity its writes are made as (depends on the names mode: the system namespace). */
  actor(names: Names): Actor;
  reconcile(world: World, env: ControllerEnv): readonly Intent[];
  /** The next instant this controller has timed work, or null. */
  nextWakeup(world: World, env: ControllerEnv): Instant | null;
}

/**
 * The identity of a kube-controller-manager controller running with its own service-account
 * credentials (`--use-service-account-credentials`): field manager `kube-controller-manager`,
 * user `system:serviceaccount:<system namespace>:<account>`.
 */
export function controllerManagerActor(account: string): (names: Names) => Actor {
  return (names) => ({
    manager: 'kube-controller-manager',
    user: {
      username: `system:serviceaccount:${names.systemNamespace}:${account}`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${names.systemNamespace}`, 'system:authenticated'],
    },
  });
}

export function describeIntent(i: Intent): string {
  switch (i.type) {
    case 'create':
      return `create ${i.resource}${i.subresource === undefined ? '' : `/${i.subresource}`} ${i.object.metadata.namespace ?? ''}/${i.object.metadata.name ?? ''}`;
    case 'update':
      return `update ${i.resource}${i.subresource === '' ? '' : `/${i.subresource}`} ${i.object.metadata.namespace ?? ''}/${i.object.metadata.name ?? ''}`;
    case 'delete':
      return `delete ${i.resource} ${i.namespace}/${i.name}`;
    case 'remember':
      return `remember ${i.controller}`;
  }
}
