/** What the fault tests share: a simulation with the invariant checkers on, and a StatefulSet body. */
import { createSimulation, type Simulation, type SimulationOptions } from '../../src/index.ts';

type Body = Record<string, any>;

/** Invariants on: a controller write refused as a bug would throw. */
export const sim = (options: SimulationOptions = {}): Promise<Simulation> => createSimulation({ seed: 1, startTime: '2026-01-01T00:00:00Z', checkInvariants: true, ...options });

export const setBody = (name: string, replicas = 3): Body => ({
  metadata: { name },
  spec: { replicas, serviceName: name, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } },
});
