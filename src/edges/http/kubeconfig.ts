/**
 * A kubeconfig for the running server: one cluster (with the CA data when serving HTTPS), one
 * user holding the admin token, one context, current.
 */
import { stringify } from 'yaml';

export function kubeconfigYaml(url: string, token: string, caPem: string | undefined): string {
  const cluster: Record<string, string> = { server: url };
  if (caPem !== undefined) cluster['certificate-authority-data'] = Buffer.from(caPem).toString('base64');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'platform-sim', cluster }],
    users: [{ name: 'platform-sim-admin', user: { token } }],
    contexts: [{ name: 'platform-sim', context: { cluster: 'platform-sim', user: 'platform-sim-admin', namespace: 'default' } }],
    'current-context': 'platform-sim',
  });
}
