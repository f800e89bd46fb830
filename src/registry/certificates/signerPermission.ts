/**
 * The synthetic "signers" permission of the certificate admission plugins
 * (plugin/pkg/admission/certificates/util.go): may the user `approve` / `sign` / `attest` for a
 * signer — asked for the signer's name, then for `<domain>/*`.
 */
import type { StrategyContext } from '../types.ts';

export function maySigner(ctx: StrategyContext, verb: 'approve' | 'sign' | 'attest', signerName: string): boolean {
  const ask = (name: string): boolean => ctx.may({ verb, apiGroup: ctx.names.certificatesGroup, resource: 'signers', name });
  if (ask(signerName)) return true;
  const slash = signerName.indexOf('/');
  return slash > 0 && ask(`${signerName.slice(0, slash)}/*`);
}
