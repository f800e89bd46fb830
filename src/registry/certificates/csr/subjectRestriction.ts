/**
 * CertificateSubjectRestriction admission (plugin/pkg/admission/certificates/subjectrestriction):
 * a request for the API-server client signer may not ask for the `system:masters` group (as a
 * subject Organization). Other signers are not restricted. A validating admission: it runs after
 * validation, so a request that does not parse was already refused (422).
 */
import type { KubeObject } from '../../../api/meta.ts';
import type { Admission, StrategyContext } from '../../types.ts';
import { decodeGoBase64Text } from '../goBase64.ts';
import { wellKnownSigners } from '../signers.ts';
import { specOf, stringField } from './accessors.ts';

const mastersGroup = 'system:masters';

export const admitSubject: Admission = (obj: KubeObject, ctx: StrategyContext) => {
  const spec = specOf(obj);
  const signer = wellKnownSigners(ctx.names).apiserverClient;
  if (stringField(spec, 'signerName') !== signer) return { ok: true, object: obj };
  const decoded = decodeGoBase64Text(stringField(spec, 'request'));
  if (!decoded.ok) return { ok: true, object: obj };
  const fact = ctx.crypto.certificateRequest(decoded.text);
  if (fact.ok && fact.subject.organizations.includes(mastersGroup)) {
    return { ok: false, message: `use of ${signer} signer with ${mastersGroup} group is not allowed` };
  }
  return { ok: true, object: obj };
};
