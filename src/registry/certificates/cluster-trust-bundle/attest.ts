/**
 * ClusterTrustBundleAttest admission: creating or changing a bundle linked to a signer needs
 * `attest` on that signer. Unlinked bundles are free, and so is an update that only touches owner
 * references or finalizers (the garbage collector's and storage migration's writes).
 */
import type { KubeObject } from '../../../api/meta.ts';
import { deepEqual, isObject } from '../../../core/json.ts';
import type { StrategyContext } from '../../types.ts';
import { maySigner } from '../signerPermission.ts';

type Admitted = { ok: true } | { ok: false; message: string };

function signerOf(o: KubeObject): string {
  return isObject(o['spec']) && typeof o['spec']['signerName'] === 'string' ? o['spec']['signerName'] : '';
}

function attest(o: KubeObject, ctx: StrategyContext): Admitted {
  const signer = signerOf(o);
  if (signer === '' || maySigner(ctx, 'attest', signer)) return { ok: true };
  return { ok: false, message: `user not permitted to attest for signerName "${signer}"` };
}

/** The object without the parts the exemption ignores (and the fields the store sets). */
function comparable(o: KubeObject): unknown {
  const { ownerReferences: _o, finalizers: _f, resourceVersion: _r, managedFields: _m, generation: _g, ...meta } = o.metadata;
  return { ...o, metadata: meta };
}

export function attestCreate(o: KubeObject, ctx: StrategyContext): { ok: true; object: KubeObject } | { ok: false; message: string } {
  const a = attest(o, ctx);
  return a.ok ? { ok: true, object: o } : a;
}

export function attestUpdate(o: KubeObject, old: KubeObject, _subresource: string, ctx: StrategyContext): Admitted {
  if (deepEqual(comparable(o), comparable(old))) return { ok: true };
  return attest(o, ctx);
}
