/**
 * @kubernetes/client-node (1.x) against a simulation in the same process, without a socket.
 *
 * client-node has two ways out and both are hooked where it means them to be extended:
 * - the typed APIs and `KubernetesObjectApi` send through the `HttpLibrary` of their
 *   `Configuration` (`createConfiguration({ httpApi })`): ours answers with `simulationFetch`, so
 *   no HTTP framing at all;
 * - `Watch` (and everything built on it: informers, `ListWatch`) calls node-fetch itself with the
 *   options `KubeConfig.applyToFetchOptions` gives it; its one hook is the agent, so ours connects
 *   in memory to the simulation (`transport/inMemoryAgent.ts`).
 * The returned KubeConfig does both (`makeApiClient` and `applyToFetchOptions` overridden in a
 * subclass), so user code that takes a KubeConfig needs no change.
 *
 * client-node is never a dependency of platform-sim: only its types are imported here; the
 * module itself comes from the caller (`k8s` option) or is imported when first asked for.
 */
import type * as K8s from '@kubernetes/client-node';
import type { Simulation } from '../edges/simulation/simulation.ts';
import { simulationBaseUrl, simulationFetch, type SimulationFetch, type SimulationFetchOptions } from './fetch.ts';
import { simulationAgent } from './transport/inMemoryAgent.ts';

/** The @kubernetes/client-node module (`import * as k8s from '@kubernetes/client-node'`). */
export type ClientNodeModule = typeof K8s;

export interface SimulationKubeConfigOptions extends SimulationFetchOptions {
  /** The caller's client-node module; by default `import('@kubernetes/client-node')`. */
  readonly k8s?: ClientNodeModule;
  /** A bearer token for the kubeconfig's user (authenticated by the simulation; `as` is then unused). */
  readonly token?: string;
  /** The context's namespace (what `KubernetesObjectApi` defaults to). Default `default`. */
  readonly namespace?: string;
}

async function clientNode(options: SimulationKubeConfigOptions): Promise<ClientNodeModule> {
  return options.k8s ?? (await import('@kubernetes/client-node'));
}

/**
 * An `HttpLibrary` for `createConfiguration({ httpApi })`: each request answered by `fetch` (a
 * `simulationFetch`), the answer as client-node's own library builds it from node-fetch's.
 */
export function simulationHttpLibrary(k8s: ClientNodeModule, fetch: SimulationFetch): K8s.HttpLibrary {
  return k8s.wrapHttpLibrary({
    async send(request) {
      const signal = request.getSignal();
      const res = await fetch(request.getUrl(), {
        method: request.getHttpMethod().toString(),
        headers: request.getHeaders(),
        body: (request.getBody() ?? null) as BodyInit | null,
        ...(signal === undefined ? {} : { signal: signal as AbortSignal }),
      });
      const headers = Object.create(null) as Record<string, string>;
      res.headers.forEach((value, name) => (headers[name] = value));
      const bytes = Buffer.from(await res.arrayBuffer());
      return new k8s.ResponseContext(res.status, headers, { text: () => Promise.resolve(bytes.toString('utf8')), binary: () => Promise.resolve(bytes) });
    },
  });
}

/**
 * A KubeConfig whose clients all talk to `sim` in process: `kc.makeApiClient(k8s.CoreV1Api)`,
 * `k8s.KubernetesObjectApi.makeApiClient(kc)`, `new k8s.Watch(kc)`. Its cluster's server is
 * `http://platform-sim.invalid` (never resolved). Without `token` the requests carry no
 * credentials and act as `as`, or as the simulation's admin.
 */
export async function simulationKubeConfig(sim: Simulation, options: SimulationKubeConfigOptions = {}): Promise<K8s.KubeConfig> {
  const k8s = await clientNode(options);
  const library = simulationHttpLibrary(k8s, simulationFetch(sim, options));
  const agent = simulationAgent(sim, options);
  class SimulationKubeConfig extends k8s.KubeConfig {
    override makeApiClient<T extends K8s.ApiType>(apiClientType: K8s.ApiConstructor<T>): T {
      // As KubeConfig.makeApiClient, with our library in place of node-fetch.
      const server = this.getCurrentCluster()?.server ?? simulationBaseUrl;
      const config = k8s.createConfiguration({ baseServer: new k8s.ServerConfiguration(server, {}), httpApi: library, authMethods: { default: this } });
      return new apiClientType(config);
    }

    override async applyToFetchOptions(opts: Parameters<K8s.KubeConfig['applyToFetchOptions']>[0]): ReturnType<K8s.KubeConfig['applyToFetchOptions']> {
      return { ...(await super.applyToFetchOptions(opts)), agent };
    }
  }
  const kc = new SimulationKubeConfig();
  kc.loadFromOptions({
    // skipTLSVerify: there is no TLS, and client-node refuses an http: server without it.
    clusters: [{ name: 'platform-sim', server: simulationBaseUrl, skipTLSVerify: true }],
    users: [{ name: 'platform-sim', ...(options.token === undefined ? {} : { token: options.token }) }],
    contexts: [{ name: 'platform-sim', cluster: 'platform-sim', user: 'platform-sim', namespace: options.namespace ?? 'default' }],
    currentContext: 'platform-sim',
  });
  return kc;
}

/** `(await simulationKubeConfig(sim, options)).makeApiClient(apiClientType)`. */
export async function makeSimulationApiClient<T extends K8s.ApiType>(sim: Simulation, apiClientType: K8s.ApiConstructor<T>, options: SimulationKubeConfigOptions = {}): Promise<T> {
  return (await simulationKubeConfig(sim, options)).makeApiClient(apiClientType);
}
