/**
 * CertificateSigningRequests: never both Approved and Denied; a certificate only on an approved,
 * not denied request; an issued certificate never changes.
 */
import { approved, certificateOf, conditionsOf, denied } from '../../registry/certificates/csr/fields.ts';
import { getObject, listObjects } from '../../store/objects.ts';
import type { Checker } from './types.ts';

const resource = 'certificates/certificatesigningrequests';

export const csrDecisions: Checker = {
  name: 'csr-decisions',
  check(before, after) {
    const problems: string[] = [];
    for (const csr of listObjects(after, resource, null)) {
      const name = csr.metadata.name ?? '';
      const types = conditionsOf(csr).map((c) => c.type);
      if (types.includes(approved) && types.includes(denied)) problems.push(`${name} is both Approved and Denied`);
      const certificate = certificateOf(csr);
      if (certificate !== '' && (!types.includes(approved) || types.includes(denied))) problems.push(`${name} has a certificate without being approved`);
      const old = before === null ? undefined : getObject(before, resource, '', name);
      if (old !== undefined && old.metadata.uid === csr.metadata.uid && certificateOf(old) !== '' && certificateOf(old) !== certificate) problems.push(`${name} changed its issued certificate`);
    }
    return problems;
  },
};
