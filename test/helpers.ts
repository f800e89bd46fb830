/**
 * Small helpers shared by the API tests: a fresh simulation and terse request calls.
 */
import { createSimulation, type Simulation, type SimulationOptions } from '../src/index.ts';

export async function sim(options: SimulationOptions = {}): Promise<Simulation> {
  return createSimulation({ seed: 1, startTime: '2026-01-01T00:00:00Z', checkInvariants: true, ...options });
}

export const saPath = (ns = 'default', name?: string): string => `/api/v1/namespaces/${ns}/serviceaccounts${name === undefined ? '' : `/${name}`}`;

export async function createSA(s: Simulation, name: string, extra: Record<string, unknown> = {}, ns = 'default') {
  const { metadata, ...rest } = extra as { metadata?: Record<string, unknown> };
  return s.request({ method: 'POST', path: saPath(ns), body: { metadata: { name, ...(metadata ?? {}) }, ...rest } });
}

export type Body = Record<string, any>;

/** A failure Status body exactly as the API server writes it (key order included). */
export const failure = (code: number, reason: string, message: string, details?: object) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason,
  ...(details === undefined ? {} : { details }),
  code,
});
