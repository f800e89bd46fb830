/**
 * Near-valid bodies: a valid body with one mistake, carrying what a faithful server must answer —
 * 422 Invalid with a cause for `field` with `reason` (and `message`, where the mistake decides
 * it). For conformance and fuzz properties: the request is refused for that reason and nothing
 * changes. The spec's kinds are here; the supporting kinds in coreRejections.ts and
 * authorizationRejections.ts.
 */
import type * as FastCheck from 'fast-check';
import type { Fc } from './arbitraries.ts';
import { serviceAccount } from './arbitraries.ts';
import { certificateSigningRequest, clusterTrustBundle, configMap, statefulSet, tokenRequest } from './objects.ts';

export type Body = Record<string, any>;

export interface Rejected {
  readonly body: Body;
  /** The mistake, in a few words. */
  readonly mistake: string;
  /** The cause the answer must carry. */
  readonly field: string;
  readonly reason: 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueNotSupported' | 'FieldValueDuplicate' | 'FieldValueForbidden';
  /** The cause's message, where the mistake decides it (`Required value`, `Unsupported value: "x": supported values: …`). */
  readonly message?: string;
}

/** One way to spoil a valid body; the field and message may depend on the spoiled body (its drawn name). */
export interface Mistake {
  readonly mistake: string;
  readonly field: string;
  readonly reason: Rejected['reason'];
  readonly message?: string | ((body: Body) => string);
  readonly apply: (body: Body) => void;
}

/** Each body drawn from `valid`, spoiled by one of `mistakes` (a deep copy is changed). */
export function spoiled(fc: Fc, valid: FastCheck.Arbitrary<Body>, mistakes: readonly Mistake[]): FastCheck.Arbitrary<Rejected> {
  return fc.tuple(valid, fc.constantFrom(...mistakes)).map(([body, m]) => {
    const copy = structuredClone(body);
    m.apply(copy);
    const message = typeof m.message === 'function' ? m.message(copy) : m.message;
    return { body: copy, mistake: m.mistake, field: m.field, reason: m.reason, ...(message === undefined ? {} : { message }) };
  });
}

const statefulSetMistakes: readonly Mistake[] = [
  { mistake: 'negative replicas', field: 'spec.replicas', reason: 'FieldValueInvalid', apply: (b) => (b.spec.replicas = -1) },
  { mistake: 'template labels the selector does not match', field: 'spec.template.metadata.labels', reason: 'FieldValueInvalid', apply: (b) => (b.spec.template.metadata.labels = { app: `${b.metadata.name}-other` }) },
  { mistake: 'restartPolicy other than Always', field: 'spec.template.spec.restartPolicy', reason: 'FieldValueNotSupported', apply: (b) => (b.spec.template.spec.restartPolicy = 'Never') },
  { mistake: 'unknown podManagementPolicy', field: 'spec.podManagementPolicy', reason: 'FieldValueInvalid', apply: (b) => (b.spec.podManagementPolicy = 'Sometimes') },
  { mistake: 'maxUnavailable 0', field: 'spec.updateStrategy.rollingUpdate.maxUnavailable', reason: 'FieldValueInvalid', apply: (b) => (b.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } }) },
  { mistake: 'negative partition', field: 'spec.updateStrategy.rollingUpdate.partition', reason: 'FieldValueInvalid', apply: (b) => (b.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: -1 } }) },
  { mistake: 'negative minReadySeconds', field: 'spec.minReadySeconds', reason: 'FieldValueInvalid', apply: (b) => (b.spec.minReadySeconds = -1) },
  { mistake: 'negative ordinals.start', field: 'spec.ordinals.start', reason: 'FieldValueInvalid', apply: (b) => (b.spec.ordinals = { start: -1 }) },
  { mistake: 'unknown claim retention', field: 'spec.persistentVolumeClaimRetentionPolicy.whenDeleted', reason: 'FieldValueNotSupported', apply: (b) => (b.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Keep', whenScaled: 'Retain' }) },
  { mistake: 'a name that is not a DNS label', field: 'metadata.name', reason: 'FieldValueInvalid', apply: (b) => (b.metadata.name = `${b.metadata.name}.x`) },
];

export function rejectedStatefulSet(fc: Fc): FastCheck.Arbitrary<Rejected> {
  return spoiled(fc, statefulSet(fc), statefulSetMistakes);
}

export function rejectedServiceAccount(fc: Fc): FastCheck.Arbitrary<Rejected> {
  return spoiled(fc, serviceAccount(fc) as FastCheck.Arbitrary<Body>, [
    { mistake: 'a name with an underscore', field: 'metadata.name', reason: 'FieldValueInvalid', apply: (b) => (b.metadata.name = `${b.metadata.name}_x`) },
    { mistake: 'a label key with a space', field: 'metadata.labels', reason: 'FieldValueInvalid', apply: (b) => (b.metadata.labels = { ...b.metadata.labels, 'bad key': 'x' }) },
    { mistake: 'a label value with a "!"', field: 'metadata.labels', reason: 'FieldValueInvalid', apply: (b) => (b.metadata.labels = { ...b.metadata.labels, ok: 'bad!' }) },
    { mistake: 'an annotation key starting with "-"', field: 'metadata.annotations', reason: 'FieldValueInvalid', apply: (b) => (b.metadata.annotations = { '-x': 'y' }) },
  ]);
}

export function rejectedConfigMap(fc: Fc): FastCheck.Arbitrary<Rejected> {
  return spoiled(fc, configMap(fc), [
    { mistake: 'a data key with a space', field: 'data[bad key]', reason: 'FieldValueInvalid', apply: (b) => (b.data = { ...b.data, 'bad key': 'x' }) },
    { mistake: 'a name with an upper-case letter', field: 'metadata.name', reason: 'FieldValueInvalid', apply: (b) => (b.metadata.name = `X${b.metadata.name}`) },
  ]);
}

export function rejectedTokenRequest(fc: Fc): FastCheck.Arbitrary<Rejected> {
  return spoiled(fc, tokenRequest(fc), [{ mistake: 'a lifetime under 10 minutes', field: 'spec.expirationSeconds', reason: 'FieldValueInvalid', apply: (b) => (b.spec.expirationSeconds = 599) }]);
}

export function rejectedCertificateSigningRequest(fc: Fc, requests: readonly string[], groupDomain: 'platform.io' | 'k8s.io' = 'platform.io'): FastCheck.Arbitrary<Rejected> {
  return spoiled(fc, certificateSigningRequest(fc, requests, groupDomain), [
    { mistake: 'a lifetime under 600 s', field: 'spec.expirationSeconds', reason: 'FieldValueInvalid', apply: (b) => (b.spec.expirationSeconds = 599) },
    { mistake: 'an unknown usage', field: 'spec.usages[1]', reason: 'FieldValueNotSupported', apply: (b) => (b.spec.usages = ['digital signature', 'flying']) },
    { mistake: 'no signer', field: 'spec.signerName', reason: 'FieldValueRequired', apply: (b) => delete b.spec.signerName },
    { mistake: 'a request that is not PEM', field: 'spec.request', reason: 'FieldValueInvalid', apply: (b) => (b.spec.request = 'aGVsbG8=') },
  ]);
}

export function rejectedClusterTrustBundle(fc: Fc, caPems: readonly string[]): FastCheck.Arbitrary<Rejected> {
  return spoiled(fc, clusterTrustBundle(fc, caPems), [
    { mistake: 'a linked bundle without its signer prefix', field: 'metadata.name', reason: 'FieldValueInvalid', apply: (b) => ((b.spec.signerName = 'example.com/other'), (b.metadata.name = `wrong:${b.metadata.name.split(':').at(-1)}`)) },
    { mistake: 'an unlinked bundle with a colon in its name', field: 'metadata.name', reason: 'FieldValueInvalid', apply: (b) => (delete b.spec.signerName, (b.metadata.name = `a:${b.metadata.name.split(':').at(-1)}`)) },
    { mistake: 'no certificate at all', field: 'spec.trustBundle', reason: 'FieldValueInvalid', apply: (b) => (b.spec.trustBundle = '') },
    { mistake: 'a PEM block with headers', field: 'spec.trustBundle', reason: 'FieldValueInvalid', apply: (b) => (b.spec.trustBundle = b.spec.trustBundle.replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n')) },
  ]);
}
