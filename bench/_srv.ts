import { serve } from '../src/server.ts';
const s = await serve({ port: 16443, clock: 'manual', seed: 31, kubeconfig: '/tmp/kc', groupDomain: 'k8s.io' });
setTimeout(() => s.close(), 15000);
