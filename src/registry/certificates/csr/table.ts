/**
 * `kubectl get csr` columns (printers.go): Name, Age, SignerName, Requestor, RequestedDuration,
 * Condition. The condition is `Denied`, else `Approved`, else `Pending`, then `,Failed` and
 * `,Issued` when they apply.
 */
import type { KubeObject } from '../../../api/meta.ts';
import { humanAge } from '../../../core/duration.ts';
import { ageColumn, nameColumn } from '../../common/tables.ts';
import type { TableColumn } from '../../types.ts';
import { approved, certificateOf, conditionsOf, denied, failed, specOf, stringField } from './accessors.ts';

export function csrCondition(obj: KubeObject): string {
  const types = new Set(conditionsOf(obj).map((c) => c.type));
  let out = types.has(denied) ? 'Denied' : types.has(approved) ? 'Approved' : 'Pending';
  if (types.has(failed)) out += ',Failed';
  if (certificateOf(obj) !== '') out += ',Issued';
  return out;
}

function requestedDuration(obj: KubeObject): string {
  const seconds = specOf(obj)['expirationSeconds'];
  return typeof seconds === 'number' ? humanAge(seconds * 1000) : '<none>';
}

const column = (name: string, description: string, cell: TableColumn['cell']): TableColumn => ({ name, type: 'string', format: '', description, priority: 0, cell });

export const csrColumns: readonly TableColumn[] = [
  nameColumn,
  ageColumn,
  column('SignerName', 'Requested signer for the request. It is a qualified name in the form: `scope-hostname.io/name`. Distribution of trust for signers happens out of band. You can select on this field using `spec.signerName`.', (obj) => stringField(specOf(obj), 'signerName') || '<none>'),
  column('Requestor', 'Base64-encoded PKCS#10 CSR data', (obj) => stringField(specOf(obj), 'username')),
  column('RequestedDuration', 'expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and and notAfter fields in the issued certificate to determine the actual duration.', requestedDuration),
  column('Condition', 'Conditions applied to the request, such as approval or denial.', csrCondition),
];
