/**
 * Reads: get and list, with the resourceVersion semantics of §8.2 (most recent, not older than,
 * exact), paging from a consistent snapshot (continue tokens pinned to a revision, 410 once that
 * revision is compacted), label and field selectors, and `remainingItemCount` when unfiltered.
 * A read that is not exact may be answered by a lagging watch cache (`cacheRevision`, set by a
 * staleRead fault): then at that revision, or at the one asked for when that is newer, as the
 * cache waits until it has caught up with a resourceVersion it is asked not to be older than.
 */
import type { KubeObject } from '../../api/meta.ts';
import { errors } from '../../core/status.ts';
import { getObject, storageKey } from '../objects.ts';
import { encodeContinue, type ContinueToken } from '../continueToken.ts';
import { listPage, objectAt, oldestReadableRevision } from '../listPage.ts';
import { fail, groupResource, type OpContext, type OpResult } from './context.ts';
import { apiVersionOf } from './typeMeta.ts';

export interface ObjectFilter {
  (obj: KubeObject): boolean;
}

export interface ListOptions {
  readonly filter?: ObjectFilter;
  /** True when a label or field selector is in use (no remainingItemCount then). */
  readonly filtered: boolean;
  readonly limit?: number;
  readonly continueToken?: ContinueToken;
  readonly resourceVersion?: number;
  readonly resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  /** The revision a lagging watch cache answers a read that is not exact at (staleRead faults). */
  readonly cacheRevision?: number;
}

/** The revision a lagging cache at `cache` answers at: never older than asked for, nor than history kept. */
function cachedRevision(ctx: OpContext, cache: number, requested: number | undefined): number {
  return Math.min(ctx.world.revision, Math.max(cache, requested ?? 0, oldestReadableRevision(ctx.world)));
}

export function get(ctx: OpContext, namespace: string, name: string, resourceVersion?: number, cacheRevision?: number): OpResult {
  if (resourceVersion !== undefined && resourceVersion > ctx.world.revision) return fail(errors.tooLargeResourceVersion(resourceVersion, ctx.world.revision));
  const obj =
    cacheRevision === undefined ? getObject(ctx.world, ctx.rt.id, namespace, name) : objectAt(ctx.world, ctx.rt.id, namespace, name, cachedRevision(ctx, cacheRevision, resourceVersion));
  if (obj === undefined) return fail(errors.notFound(groupResource(ctx), name));
  return { ok: true, world: ctx.world, code: 200, body: obj, warnings: [] };
}

/**
 * Whether a list reads one exact revision (resourceVersionMatch=Exact, a resourceVersion with a
 * limit, a continue token): such a read is never answered from a lagging cache.
 */
export function isExactList(opts: ListOptions): boolean {
  if (opts.continueToken !== undefined) return true;
  const requested = opts.resourceVersion;
  if (requested === undefined || requested === 0) return false;
  return opts.resourceVersionMatch === 'Exact' || (opts.resourceVersionMatch === undefined && opts.limit !== undefined && opts.limit > 0);
}

/** Which revision a list reads, or the error that refuses it. */
function readRevision(ctx: OpContext, opts: ListOptions): { ok: true; rv: number; exact: boolean } | { ok: false; result: OpResult } {
  const world = ctx.world;
  if (opts.continueToken !== undefined) {
    const rv = opts.continueToken.rv;
    if (rv === -1) return { ok: true, rv: world.revision, exact: false };
    if (rv < world.compactedRevision) {
      const fresh = encodeContinue(-1, opts.continueToken.start.replace(/\u0000$/, ''));
      return {
        ok: false,
        result: fail(
          errors.expired(
            'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
            fresh,
          ),
        ),
      };
    }
    return { ok: true, rv, exact: true };
  }
  const requested = opts.resourceVersion;
  if (requested !== undefined && requested > world.revision) return { ok: false, result: fail(errors.tooLargeResourceVersion(requested, world.revision)) };
  if (requested === undefined || !isExactList(opts)) return { ok: true, rv: opts.cacheRevision === undefined ? world.revision : cachedRevision(ctx, opts.cacheRevision, requested), exact: false };
  if (requested < world.compactedRevision) return { ok: false, result: fail(errors.expired('The resourceVersion for the provided list is too old.')) };
  return { ok: true, rv: requested, exact: true };
}

/** List items carry no kind/apiVersion, as real typed lists. */
function listItem(obj: KubeObject): KubeObject {
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  return rest as KubeObject;
}

export function list(ctx: OpContext, namespace: string | null, opts: ListOptions): OpResult {
  const read = readRevision(ctx, opts);
  if (!read.ok) return read.result;
  const rv = read.rv;
  // resourceVersion=0 is served from the cache: limit is ignored.
  const limit = opts.resourceVersion === 0 && opts.continueToken === undefined ? 0 : (opts.limit ?? 0);
  const page = listPage(ctx.world, ctx.rt.id, namespace, rv, {
    ...(opts.continueToken === undefined ? {} : { start: opts.continueToken.start }),
    limit,
    ...(opts.filter === undefined ? {} : { filter: opts.filter }),
    countRemaining: !opts.filtered,
  });
  const metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number } = { resourceVersion: String(rv) };
  if (page.more) {
    metadata.continue = encodeContinue(rv, keyOf(page.items[page.items.length - 1]!, namespace));
    if (page.remaining !== undefined) metadata.remainingItemCount = page.remaining;
  }
  const body = { kind: ctx.rt.listKind, apiVersion: apiVersionOf(ctx.rt), metadata, items: page.items.map(listItem) };
  return { ok: true, world: ctx.world, code: 200, body, warnings: [] };
}

/** Key below the list's prefix: `name` inside a namespace, `ns/name` across namespaces. */
function keyOf(obj: KubeObject, namespace: string | null): string {
  return namespace === null ? storageKey(obj.metadata.namespace ?? '', obj.metadata.name ?? '') : (obj.metadata.name ?? '');
}
