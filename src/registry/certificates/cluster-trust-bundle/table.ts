/** `kubectl get clustertrustbundles` columns: Name, SignerName. */
import { nameColumn } from '../../common/tables.ts';
import type { TableColumn } from '../../types.ts';
import { specString } from './accessors.ts';

export const clusterTrustBundleColumns: readonly TableColumn[] = [
  nameColumn,
  {
    name: 'SignerName',
    type: 'string',
    format: '',
    description: 'signerName indicates the associated signer, if any.',
    priority: 0,
    cell: (obj) => specString(obj, 'signerName') || '<none>',
  },
];
