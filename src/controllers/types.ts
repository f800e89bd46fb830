/**
 * Controllers are pure: `reconcile(world)` returns intents (writes a controller wants), the
 * simulation applies them through the store and runs the controllers again until none has
 * anything left to do at the current instant. Controllers never write and never call an edge.
 */
import type { KubeObject } from '../api/meta.ts';
import type { Instant } from '../core/duration.ts';
import type { World } from '../store/world.ts';
import type { RegistryView } from '../store/ops/context.ts';
import type { Names } from '../api/names.ts';
import type { PropagationPolicy } from '../store/ops/delete.ts';
import type { CryptoFacts } from '../api/crypto.ts';

export type Intent =
  | { readonly type: 'create'; readonly resource: string; readonly object: KubeObject }
  /** A trusted write of a whole object, as a controller's update of a subresource would be. */
  | { readonly type: 'write'; readonly resource: string; readonly object: KubeObject }
  | { readonly type: 'delete'; readonly resource: string; readonly namespace: string; readonly name: string; readonly uid: string; readonly propagationPolicy?: PropagationPolicy }
  /** Controller bookkeeping kept in `world.controllers[name]`. */
  | { readonly type: 'remember'; readonly controller: string; readonly state: unknown };

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
}

/** The services a step gives its controllers. */
export interface ControllerServices {
  readonly crypto: CryptoFacts;
  readonly signing: SigningConfig;
}

export interface Controller {
  readonly name: string;
  reconcile(world: World, env: ControllerEnv): readonly Intent[];
  /** The next instant this controller has timed work, or null. */
  nextWakeup(world: World, env: ControllerEnv): Instant | null;
}

export function describeIntent(i: Intent): string {
  switch (i.type) {
    case 'create':
    case 'write':
      return `${i.type} ${i.resource} ${i.object.metadata.namespace ?? ''}/${i.object.metadata.name ?? ''}`;
    case 'delete':
      return `delete ${i.resource} ${i.namespace}/${i.name}`;
    case 'remember':
      return `remember ${i.controller}`;
  }
}
