/**
 * The ServiceAccount admission of Pods: the account must exist, its imagePullSecrets are copied to
 * a pod without its own, and the deprecated enforce-mountable-secrets annotation limits the
 * secrets a pod may reference to the account's `secrets` list (with a deprecation warning).
 */
import { describe, expect, it } from 'vitest';
import { createSA, sim, type Body } from '../../helpers.ts';
import { createPod } from './helpers.ts';

const annotation = 'platform.io/enforce-mountable-secrets';

describe('ServiceAccount admission of pods', () => {
  it('refuses a pod whose service account does not exist', async () => {
    const s = await sim({ nodeAgent: false });
    const res = await createPod(s, 'p', { serviceAccountName: 'ghost' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ reason: 'Forbidden', message: 'pods "p" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found', details: { name: 'p', kind: 'pods' } });
  });

  it('copies the account imagePullSecrets to a pod without any', async () => {
    const s = await sim({ nodeAgent: false });
    await createSA(s, 'puller', { imagePullSecrets: [{ name: 'registry' }] });
    const pod = (await createPod(s, 'p', { serviceAccountName: 'puller' })).body as Body;
    expect(pod.spec.imagePullSecrets).toEqual([{ name: 'registry' }]);
  });

  it('enforces the secrets list when the annotation is true, with a deprecation warning', async () => {
    const s = await sim({ nodeAgent: false });
    const created = await createSA(s, 'strict', { metadata: { annotations: { [annotation]: 'true' } }, secrets: [{ name: 'allowed' }] });
    expect(created.headers['warning']).toEqual([`299 - "metadata.annotations[${annotation}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets"`]);
    const vol = (secretName: string) => ({ serviceAccountName: 'strict', volumes: [{ name: 'v', secret: { secretName } }] });
    expect((await createPod(s, 'ok', vol('allowed'))).status).toBe(201);
    const refused = await createPod(s, 'no', vol('other'));
    expect(refused.status).toBe(403);
    expect((refused.body as Body).message).toBe('pods "no" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret');
    const env = await createPod(s, 'env', {
      serviceAccountName: 'strict',
      containers: [{ name: 'app', image: 'nginx:1.27', env: [{ name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'other', key: 'pw' } } }] }],
    });
    expect((env.body as Body).message).toBe('pods "env" is forbidden: container app with envVar PASSWORD referencing secret.secretName="other" is not allowed because service account strict does not reference that secret');
    const envFrom = await createPod(s, 'envfrom', {
      serviceAccountName: 'strict',
      initContainers: [{ name: 'setup', image: 'busybox', envFrom: [{ secretRef: { name: 'allowed' } }, { secretRef: { name: 'other' } }] }],
      containers: [{ name: 'app', image: 'nginx:1.27' }],
    });
    expect((envFrom.body as Body).message).toBe('pods "envfrom" is forbidden: init container setup with envFrom referencing secret.secretName="other" is not allowed because service account strict does not reference that secret');
    const pull = await createPod(s, 'pull', { serviceAccountName: 'strict', imagePullSecrets: [{ name: 'registry' }] });
    expect((pull.body as Body).message).toBe('pods "pull" is forbidden: imagePullSecrets[0].name="registry" is not allowed because service account strict does not reference that imagePullSecret');
  });

  it('does not enforce when the annotation is not a true value', async () => {
    const s = await sim({ nodeAgent: false });
    await createSA(s, 'lax', { metadata: { annotations: { [annotation]: 'no' } } });
    expect((await createPod(s, 'p', { serviceAccountName: 'lax', volumes: [{ name: 'v', secret: { secretName: 'any' } }] })).status).toBe(201);
  });
});
