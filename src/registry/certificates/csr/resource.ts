/**
 * CertificateSigningRequest (certificates.<domain>/v1, pkg/registry/certificates): cluster-scoped,
 * short name `csr`, any name that is a valid path segment, `/status` (certificate, Failed) and
 * `/approval` (Approved, Denied) subresources with their own strategies, unconditional PUT
 * allowed, field selectors `metadata.name` and `spec.signerName`. Admission: NodeRestriction's
 * CSR rule before validation, CertificateSubjectRestriction after it, CertificateApproval and
 * CertificateSigning on updates.
 */
import type { Names } from '../../../api/names.ts';
import { allVerbs } from '../../common/defaultStrategy.ts';
import type { ResourceType } from '../../types.ts';
import { csrFieldSelectors } from './fields.ts';
import { csrSchema } from './schema.ts';
import { confineToStatusAndSpec, csrApprovalStrategy, csrStatusStrategy, csrStrategy } from './strategy.ts';
import { admitSubject } from './subjectRestriction.ts';
import { admitCsrUpdate } from './admission.ts';
import { admitNodeCsr } from './nodeRestriction.ts';
import { csrColumns } from './table.ts';

const subresourceVerbs = ['get', 'patch', 'update'] as const;

export const certificateSigningRequestResource = (names: Names): ResourceType => ({
  id: 'certificates/certificatesigningrequests',
  group: names.certificatesGroup,
  version: 'v1',
  resource: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  kind: 'CertificateSigningRequest',
  listKind: 'CertificateSigningRequestList',
  namespaced: false,
  shortNames: ['csr'],
  categories: [],
  verbs: allVerbs,
  schema: csrSchema,
  nameRule: 'path',
  strategy: csrStrategy,
  admitCreate: admitNodeCsr,
  validateCreateAdmission: admitSubject,
  validateUpdateAdmission: admitCsrUpdate,
  subresources: [
    { name: 'approval', kind: 'CertificateSigningRequest', verbs: subresourceVerbs, strategy: csrApprovalStrategy, confine: confineToStatusAndSpec },
    { name: 'status', kind: 'CertificateSigningRequest', verbs: subresourceVerbs, strategy: csrStatusStrategy, confine: confineToStatusAndSpec },
  ],
  fieldSelectors: csrFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: ['status'],
  table: csrColumns,
});
