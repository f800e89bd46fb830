/**
 * What every store operation receives and returns. Operations are pure: the world comes in,
 * a new world (or the same one, for reads, dry runs and failures) goes out with the response.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import type { ApiError, Status } from '../../core/status.ts';
import type { AccessCheck, RegistryView, ResourceType, StrategyContext } from '../../registry/types.ts';
import type { World } from '../world.ts';
import { getObject } from '../objects.ts';
import { systemUser, type UserInfo } from '../../api/userInfo.ts';
import type { CryptoFacts } from '../../api/crypto.ts';
import { noCryptoFacts } from '../../api/noCryptoFacts.ts';

export interface OpContext {
  readonly world: World;
  readonly rt: ResourceType;
  readonly registry: RegistryView;
  readonly names: Names;
  readonly dryRun: boolean;
  readonly fieldManager: string;
  /** Subresource written through (`status`), or '' for the main resource. */
  readonly subresource: string;
  /** The requesting user; writes by the simulation itself default to `systemUser`. */
  readonly user?: UserInfo | undefined;
  readonly crypto?: CryptoFacts | undefined;
  /** RBAC for admission checks; writes by the simulation itself may do anything. */
  readonly may?: ((check: AccessCheck) => boolean) | undefined;
  /**
   * A check the storage makes on the object a patch or apply produced, before the store checks
   * its resourceVersion and validates it (the RBAC storage's escalation check: a 403 that comes
   * before a 409 or a 422). A refusal is answered as it is.
   */
  readonly storageGuard?: ((object: KubeObject, verb: 'create' | 'update') => ApiError | null) | undefined;
}

/**
 * `ctx` with `parts` replaced, built field by field in one order: contexts spread from one another
 * (`{ ...ctx, dryRun }`) came in several hidden classes, and V8 copies an object at a site that
 * has seen several on its slow path (a few percent of every write).
 */
export function contextWith(ctx: OpContext, parts: Partial<OpContext>): OpContext {
  const out: { -readonly [K in keyof OpContext]: OpContext[K] } = {
    world: ctx.world,
    rt: ctx.rt,
    registry: ctx.registry,
    names: ctx.names,
    dryRun: ctx.dryRun,
    fieldManager: ctx.fieldManager,
    subresource: ctx.subresource,
    user: ctx.user,
    crypto: ctx.crypto,
    may: ctx.may,
    storageGuard: ctx.storageGuard,
  };
  return Object.assign(out, parts);
}

export type OpBody = KubeObject | Status | { kind: string; apiVersion: string; metadata: object; items: KubeObject[] };

export type OpResult =
  | { readonly ok: true; readonly world: World; readonly code: number; readonly body: OpBody; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly error: ApiError; readonly warnings: readonly string[] };

export function fail(error: ApiError, warnings: readonly string[] = []): OpResult {
  return { ok: false, error, warnings };
}

export function strategyContext(ctx: OpContext): StrategyContext {
  const world = ctx.world;
  return {
    now: world.now,
    names: ctx.names,
    lookup: (resource, namespace, name) => getObject(world, resource, namespace, name),
    user: ctx.user ?? systemUser,
    crypto: ctx.crypto ?? noCryptoFacts,
    may: ctx.may ?? (() => true),
  };
}

export function groupResource(ctx: { rt: ResourceType }): { group: string; resource: string } {
  return { group: ctx.rt.group, resource: ctx.rt.resource };
}

export function groupKind(ctx: { rt: ResourceType }): { group: string; kind: string } {
  return { group: ctx.rt.group, kind: ctx.rt.kind };
}
