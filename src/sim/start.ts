/**
 * A fresh world and the environment `step` needs, from options alone: everything a caller must
 * hold to drive a simulation with nothing but `step` (sans-IO). The keys are what the edge
 * imported (none: tokens cannot be issued or verified, everything else works); `signingCaNotAfter`
 * is when the built-in signers' CA expires (epoch ms).
 */
import { namesFor } from '../api/names.ts';
import type { ServiceAccountKey } from '../auth/identityConfig.ts';
import { buildResourceTable } from '../registry/index.ts';
import type { World } from '../store/world.ts';
import { bootstrapWorld } from './bootstrap.ts';
import { identityWithKeys, resolveOptions, type ResolvedOptions, type SimulationOptions } from './options.ts';
import type { StepEnv } from './step.ts';
import { builtInControllers } from './controllers.ts';

export interface StartingPoint {
  readonly world: World;
  readonly env: StepEnv;
  readonly options: ResolvedOptions;
}

export interface StartingEdge {
  readonly keys?: readonly ServiceAccountKey[];
  readonly signingCaNotAfter?: number;
  /** Crypto facts the edge established so far (a Map it keeps adding to), by factKey. */
  readonly facts?: ReadonlyMap<string, unknown>;
}

export function startingPoint(options: SimulationOptions = {}, edge: StartingEdge = {}): StartingPoint {
  const o = resolveOptions(options);
  const table = buildResourceTable(namesFor(o.config.groupDomain));
  const env: StepEnv = {
    table,
    identity: identityWithKeys(o, edge.keys ?? []),
    facts: edge.facts ?? new Map(),
    signing: { caNotAfter: edge.signingCaNotAfter ?? Number.MAX_SAFE_INTEGER, maxDurationSeconds: o.clusterSigningDurationSeconds },
    controllers: [...builtInControllers, ...(options.controllers ?? [])],
  };
  return { world: bootstrapWorld(o, table), env, options: o };
}
