/**
 * The ServiceAccount admission plugin for Pods (plugin/pkg/admission/serviceaccount), on create:
 * the pod's service account must exist; a pod without imagePullSecrets takes the account's; and
 * when the account carries the (deprecated) enforce-mountable-secrets annotation with a true
 * value, every secret the pod references must be listed in the account's `secrets`. A refusal is
 * a 403 `pods "<name>" is forbidden: <why>`. (The projected token volume the real plugin mounts
 * is not added: the simulated node agent never reads it.)
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, objectField, type JsonObject } from '../../core/json.ts';
import type { Admission, StrategyContext } from '../types.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const objects = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** Go's strconv.ParseBool true values. */
const trueValues = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

function secretRefusal(sa: KubeObject, spec: JsonObject): string | null {
  const mountable = new Set(objects(sa['secrets']).map((s) => str(s['name'])));
  const account = sa.metadata.name ?? '';
  for (const v of objects(spec['volumes'])) {
    if (!isObject(v['secret'])) continue;
    const name = str(v['secret']['secretName']);
    if (!mountable.has(name)) return `volume with secret.secretName="${name}" is not allowed because service account ${account} does not reference that secret`;
  }
  const envRefusal = (list: unknown, what: string): string | null => {
    for (const c of objects(list)) {
      for (const e of objects(c['env'])) {
        const ref = isObject(e['valueFrom']) && isObject(e['valueFrom']['secretKeyRef']) ? str(e['valueFrom']['secretKeyRef']['name']) : null;
        if (ref !== null && !mountable.has(ref)) {
          return `${what} ${str(c['name'])} with envVar ${str(e['name'])} referencing secret.secretName="${ref}" is not allowed because service account ${account} does not reference that secret`;
        }
      }
      // envFrom too (the fix of CVE-2024-3177, in every release since 1.27.13).
      for (const e of objects(c['envFrom'])) {
        const ref = isObject(e['secretRef']) ? str(e['secretRef']['name']) : null;
        if (ref !== null && !mountable.has(ref)) return `${what} ${str(c['name'])} with envFrom referencing secret.secretName="${ref}" is not allowed because service account ${account} does not reference that secret`;
      }
    }
    return null;
  };
  const env = envRefusal(spec['initContainers'], 'init container') ?? envRefusal(spec['containers'], 'container') ?? envRefusal(spec['ephemeralContainers'], 'ephemeral container');
  if (env !== null) return env;
  const pullable = new Set(objects(sa['imagePullSecrets']).map((s) => str(s['name'])));
  const pulls = objects(spec['imagePullSecrets']);
  for (let i = 0; i < pulls.length; i++) {
    const name = str(pulls[i]!['name']);
    if (!pullable.has(name)) return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${account} does not reference that imagePullSecret`;
  }
  return null;
}

export const serviceAccountAdmission: Admission = (pod: KubeObject, ctx: StrategyContext) => {
  const spec: JsonObject = objectField(pod, 'spec');
  const namespace = pod.metadata.namespace ?? '';
  const account = str(spec['serviceAccountName']) || 'default';
  const sa = ctx.lookup('core/serviceaccounts', namespace, account);
  if (sa === undefined) return { ok: false, message: `error looking up service account ${namespace}/${account}: serviceaccount "${account}" not found` };
  let admitted = pod;
  if (objects(spec['imagePullSecrets']).length === 0 && objects(sa['imagePullSecrets']).length > 0) {
    admitted = { ...pod, spec: { ...spec, imagePullSecrets: objects(sa['imagePullSecrets']).map((s) => ({ name: str(s['name']) })) } };
  }
  const annotation = sa.metadata.annotations?.[ctx.names.enforceMountableSecretsAnnotation];
  if (annotation !== undefined && trueValues.has(annotation)) {
    const refusal = secretRefusal(sa, objectField(admitted, 'spec'));
    if (refusal !== null) return { ok: false, message: refusal };
  }
  return { ok: true, object: admitted };
};
