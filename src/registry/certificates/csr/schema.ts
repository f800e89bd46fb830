/**
 * CertificateSigningRequest (certificates/v1) schema facts. `request` and `certificate` are Go
 * `[]byte` (base64 in JSON). Conditions are a map list keyed by `type` for server-side apply
 * only: the Go type has no patch strategy, so merge and strategic merge patches replace the list.
 */
import { s, type ListSchema } from '../../../api/schema.ts';
import { objectMetaSchema } from '../../../api/meta.ts';

const condition = s.struct('CertificateSigningRequestCondition', {
  type: s.string(),
  status: s.string(),
  reason: s.string(),
  message: s.string(),
  lastUpdateTime: s.time(),
  lastTransitionTime: s.time(),
});

const conditions: ListSchema = { type: 'list', items: condition, listType: 'map', mapKeys: ['type'] };

export const csrSpecSchema = s.struct('CertificateSigningRequestSpec', {
  request: s.bytes(),
  signerName: s.string(),
  expirationSeconds: s.int32(),
  usages: s.atomicList(s.string()),
  username: s.string(),
  uid: s.string(),
  groups: s.atomicList(s.string()),
  extra: s.map(s.atomicList(s.string()), { goType: 'map[string]v1.ExtraValue' }),
});

export const csrStatusSchema = s.struct('CertificateSigningRequestStatus', {
  conditions,
  certificate: s.bytes(),
});

export const csrSchema = s.struct('CertificateSigningRequest', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: csrSpecSchema,
  status: csrStatusSchema,
});
