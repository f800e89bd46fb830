/**
 * CertificateApproval and CertificateSigning admission (plugin/pkg/admission/certificates): every
 * update through `/approval` needs `approve` on the stored request's signer; an update through
 * `/status` that changes the certificate or the conditions needs `sign`. (Denying is approving's
 * other half: there is no `deny` verb.) The signer comes from the stored object, so changing it in
 * the body cannot escalate. The verb of each door is the one its moves name in the lifecycle table.
 */
import type { KubeObject } from '../../../api/meta.ts';
import { deepEqual, getOwn, objectField } from '../../../core/json.ts';
import type { StrategyContext } from '../../types.ts';
import { maySigner } from '../signerPermission.ts';
import { signerVerbFor } from './lifecycle.ts';

const field = (o: KubeObject, part: 'spec' | 'status', key: string): unknown => getOwn(objectField(o, part), key);

export function admitCsrUpdate(obj: KubeObject, old: KubeObject, subresource: string, ctx: StrategyContext): { ok: true } | { ok: false; message: string } {
  const signer = String(field(old, 'spec', 'signerName') ?? '');
  const refused = (verb: string) => ({ ok: false as const, message: `user not permitted to ${verb} requests with signerName "${signer}"` });
  if (subresource === 'approval') {
    const verb = signerVerbFor('approval');
    if (!maySigner(ctx, verb, signer)) return refused(verb);
  }
  if (subresource === 'status') {
    const verb = signerVerbFor('status');
    const changed = !deepEqual(field(obj, 'status', 'certificate'), field(old, 'status', 'certificate')) || !deepEqual(field(obj, 'status', 'conditions'), field(old, 'status', 'conditions'));
    if (changed && !maySigner(ctx, verb, signer)) return refused(verb);
  }
  return { ok: true };
}
